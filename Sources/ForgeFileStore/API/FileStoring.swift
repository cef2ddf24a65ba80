public import Foundation

/// A store of files by relative path: documents, images, caches and other blobs.
///
/// Depend on the protocol, not on a concrete store, so tests can inject ``InMemoryFileStore``:
///
/// ```swift
/// final class AvatarService {
///     private let files: any FileStoring
///     init(files: any FileStoring) { self.files = files }
///
///     func saveAvatar(_ image: Data) async throws { try await files.save(image, to: "avatars/current.jpg") }
///     var hasAvatar: Bool { files.exists("avatars/current.jpg") }
/// }
/// ```
///
/// Every implementation behaves the same:
/// - **Paths** are relative and `/`-separated, like `"docs/2025/report.pdf"`. Empty paths, absolute paths,
///   `.` and `..` names, empty names (`a//b`), NUL, names over 255 bytes and paths over 1024 bytes are
///   refused with ``FileStoreError/invalidPath(path:reason:)`` naming the path, before anything is touched. A
///   store may also refuse names of a form it reserves for itself (``DiskFileStore`` refuses the form of its
///   temporary files, `.name.forge-tmp-…`). Paths are compared as Swift compares strings (canonically
///   equivalent Unicode spellings are one path), so they are case-sensitive: `A.txt` and `a.txt` are two files,
///   except where the backing volume folds case (``DiskFileStore`` on a case-insensitive volume, the macOS
///   default).
/// - **Names that start with `.`** (`.hidden`) are files like any other: listed, counted by `totalSize`, and
///   deleted by `deleteAll`.
/// - **Folders** are implicit: saving `docs/a.txt` creates `docs`, and a folder exists while it holds a
///   file; deleting its last file removes it. A path cannot be a file and a folder at once.
/// - **Saves** are atomic: a reader, or a process that crashes mid-save, finds the old content or the new,
///   never a torn or empty file. Concurrent saves to one path leave one of the saved versions, whole.
/// - **Handles** on the same storage (two ``DiskFileStore`` values on one folder and namespace) see each
///   other's changes at once: a store keeps no copy of what it read. Stores on one backing with different
///   namespaces share nothing.
/// - **Errors** are ``FileStoreError`` values.
///
/// ## Writing a store
/// Build it on ``FileBackend``: declare both protocols and implement the backend's eight requirements (read, write,
/// remove and find a file at a checked path, its size and date, list the names in a folder, remove all, total size),
/// and every requirement here comes with them, written once for every store: the path rules and their errors, one
/// spelling per path, `notFound`, errors naming the path as the caller spelled it, and sorted listings; so do
/// ``FileBackend/fileInfo(at:)`` and ``FileBackend/allFiles()``. The conformance suite
/// (`FileStoringConformance` in ForgeStorageTesting) holds a store to all of it. A store written against this
/// protocol alone still conforms, and keeps the helpers (`save(_:to:)`, `saveJSON(_:to:overwrite:)`,
/// `loadJSON(_:as:)`, `loadJSONIfExists(_:as:)`).
public protocol FileStoring: Sendable {
    /// Saves `data` at `path`, creating the folders on the way.
    ///
    /// - Parameters:
    ///   - data: The bytes to store; empty data stores an empty file.
    ///   - path: The relative path of the file, such as `"notes/today.txt"`.
    ///   - overwrite: When false, the save fails if a file is already stored at `path`. The check and the
    ///     save are one atomic step, so of two concurrent saves only one can succeed.
    /// - Throws: ``FileStoreError/invalidPath(path:reason:)``, ``FileStoreError/alreadyExists(path:)``, or
    ///   ``FileStoreError/writeFailed(path:reason:)`` (for example when `path` is a folder or the disk is
    ///   full). What was stored at `path` before is kept.
    nonisolated(nonsending) func save(_ data: Data, to path: String, overwrite: Bool) async throws

    /// Returns the contents of the file at `path`.
    ///
    /// - Throws: ``FileStoreError/notFound(path:)`` when no file is stored there,
    ///   ``FileStoreError/invalidPath(path:reason:)``, or ``FileStoreError/readFailed(path:reason:)``.
    nonisolated(nonsending) func load(_ path: String) async throws -> Data

    /// Returns true when a file is stored at `path`. False for folders and for invalid paths.
    func exists(_ path: String) -> Bool

    /// Deletes the file at `path`, and the folders this leaves empty.
    ///
    /// - Throws: ``FileStoreError/notFound(path:)`` when no file is stored there,
    ///   ``FileStoreError/invalidPath(path:reason:)``, or ``FileStoreError/deleteFailed(path:reason:)``
    ///   (for example when `path` is a folder: folders go away with their last file).
    nonisolated(nonsending) func delete(_ path: String) async throws

    /// Returns what is directly in the folder at `folder`, sorted, as paths relative to the store.
    ///
    /// Files are listed by path (`"docs/a.txt"`), and the sub-folders by path with a trailing `/`
    /// (`"docs/drafts/"`), which can be passed back to `list(in:)`. Nothing deeper is listed, and nothing
    /// outside the folder: `list(in: "docs")` never shows `docs-old/x`. Pass `""` for the store's top
    /// folder; a trailing `/` on `folder` is allowed. A folder that holds nothing lists as empty.
    ///
    /// - Throws: ``FileStoreError/invalidPath(path:reason:)`` or ``FileStoreError/listFailed(path:reason:)``.
    nonisolated(nonsending) func list(in folder: String) async throws -> [String]

    /// Deletes every file and folder of this store, and nothing else.
    ///
    /// - Throws: ``FileStoreError/deleteFailed(path:reason:)`` with an empty path.
    nonisolated(nonsending) func deleteAll() async throws

    /// The sum of the sizes, in bytes, of every file in the store.
    ///
    /// - Throws: ``FileStoreError/listFailed(path:reason:)`` with an empty path.
    nonisolated(nonsending) func totalSize() async throws -> Int
}

extension FileStoring {
    /// Saves `data` at `path`, replacing any file stored there.
    ///
    /// - Parameters:
    ///   - data: The bytes to store.
    ///   - path: The relative path of the file.
    /// - Throws: See ``save(_:to:overwrite:)``.
    public nonisolated(nonsending) func save(_ data: Data, to path: String) async throws {
        try await save(data, to: path, overwrite: true)
    }
}
