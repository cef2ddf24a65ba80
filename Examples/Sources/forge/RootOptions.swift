import ArgumentParser
import Foundation

/// The `--root` option every command takes: the data folder that holds the namespaces.
struct RootOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The data folder that holds the stores (default: the TaskFlow folder in Application Support).",
            valueName: "dir"
        )
    )
    var root: String?

    /// The data folder: `--root`, or `TaskFlow` in the user's Application Support folder
    /// (`~/Library/Application Support` on macOS, `$XDG_DATA_HOME` or `~/.local/share` on Linux).
    var rootURL: URL {
        if let root {
            return URL(fileURLWithPath: root, isDirectory: true).standardizedFileURL
        }
        let base =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        return base.appendingPathComponent("TaskFlow", isDirectory: true)
    }

    /// The existing data folder.
    ///
    /// - Throws: ``ForgeError/missingRoot(_:)`` when it does not exist: nothing is ever created by a
    ///   command that only reads or edits.
    func existingRoot() throws -> DataRoot {
        let url = rootURL
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ForgeError.missingRoot(url.path)
        }
        return DataRoot(url: url)
    }
}
