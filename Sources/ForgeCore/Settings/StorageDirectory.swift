public import Foundation

/// The base folder a disk store keeps its namespace folders in.
///
/// On Apple platforms the named folders are the user-domain folders of the app's container. On Linux they
/// follow the XDG base-directory conventions: ``documents`` is `~/Documents`, ``applicationSupport`` is
/// `$XDG_DATA_HOME` (default `~/.local/share`) and ``caches`` is `$XDG_CACHE_HOME` (default `~/.cache`).
/// Servers, tests and app groups pass ``custom(_:)``.
public enum StorageDirectory: Sendable, Hashable {
    /// User-visible documents, backed up by iCloud on Apple platforms.
    case documents
    /// App-managed data that is backed up. The usual home for settings and state.
    case applicationSupport
    /// Data that can be recreated: not backed up, and purged by the system when space runs low.
    case caches
    /// Any folder, given as a file URL: a server's data folder, an app-group container, a test folder.
    case custom(URL)
}

extension StorageDirectory {
    /// The absolute folder this case names on the current platform.
    package func resolvedURL() -> URL {
        switch self {
        case .custom(let url):
            return url.standardizedFileURL
        case .documents:
            return Self.userFolder(.documentDirectory, xdgVariable: nil, fallback: "Documents")
        case .applicationSupport:
            return Self.userFolder(.applicationSupportDirectory, xdgVariable: "XDG_DATA_HOME", fallback: ".local/share")
        case .caches:
            return Self.userFolder(.cachesDirectory, xdgVariable: "XDG_CACHE_HOME", fallback: ".cache")
        }
    }

    /// The folder a disk store keeps `namespace` in: ``resolvedURL()``, then the namespace's escaped
    /// folder name (see ``FileNameEncoding/folderName(forNamespace:)``), so it never leaves this folder.
    package func folderURL(forNamespace namespace: String) -> URL {
        resolvedURL().appendingPathComponent(FileNameEncoding.folderName(forNamespace: namespace), isDirectory: true)
    }

    private static func userFolder(
        _ directory: FileManager.SearchPathDirectory,
        xdgVariable: String?,
        fallback: String
    ) -> URL {
        #if canImport(Darwin)
        if let url = FileManager.default.urls(for: directory, in: .userDomainMask).first {
            return url
        }
        #else
        if let xdgVariable, let value = ProcessInfo.processInfo.environment[xdgVariable], value.hasPrefix("/") {
            return URL(fileURLWithPath: value, isDirectory: true)
        }
        #endif
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(fallback, isDirectory: true)
    }
}
