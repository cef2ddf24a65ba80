public import Foundation

/// The storage an asynchronous file store is built on (a database behind a network): the bytes of files at checked
/// paths, and nothing more.
///
/// The asynchronous form of ``FileBackend``: the same requirements, meaning the same (``allFiles()`` has the same
/// default), with one difference: ``hasFile(at:)`` and ``storedFileInfo(at:)`` are `async throws`, since a store
/// behind a network cannot tell without waiting on its server. The requirements are `nonisolated(nonsending)`, as
/// ``AsyncFileStoring``'s are: a store may run a call on its caller's executor, and one whose methods are plain
/// `async` (`@concurrent`) runs them on the concurrent pool. Declare ``AsyncFileStoring`` beside it and that
/// protocol's requirements come with it, the same policy ``FileBackend``'s stores get.
public protocol AsyncFileBackend: Sendable {
    /// The contents of the file at `path`, or nil when no file is stored there. See ``FileBackend/contents(at:)``.
    ///
    /// - Throws: ``FileStoreError/readFailed(path:reason:)``.
    nonisolated(nonsending) func contents(at path: StoredFilePath) async throws -> Data?

    /// Stores `data` as the file at `path`, atomically. See ``FileBackend/write(_:at:replacing:)``.
    ///
    /// - Throws: ``FileStoreError/alreadyExists(path:)`` or ``FileStoreError/writeFailed(path:reason:)``; what was
    ///   stored at `path` is kept.
    nonisolated(nonsending) func write(_ data: Data, at path: StoredFilePath, replacing: Bool) async throws

    /// Removes the file at `path`, and the folders it leaves holding nothing; false when no file is stored there.
    ///
    /// - Throws: ``FileStoreError/deleteFailed(path:reason:)``.
    nonisolated(nonsending) func removeFile(at path: StoredFilePath) async throws -> Bool

    /// Whether a file is stored at `path`: false for a folder.
    ///
    /// - Throws: ``FileStoreError/readFailed(path:reason:)`` when the store cannot tell, as when its server cannot be
    ///   reached.
    nonisolated(nonsending) func hasFile(at path: StoredFilePath) async throws -> Bool

    /// The size and modification date of the file at `path`, or nil when no file is stored there (also for a
    /// folder). See ``FileBackend/storedFileInfo(at:)``.
    ///
    /// - Throws: ``FileStoreError/readFailed(path:reason:)`` when the store cannot tell, as when its server cannot be
    ///   reached.
    nonisolated(nonsending) func storedFileInfo(at path: StoredFilePath) async throws -> StoredFileInfo?

    /// The names of the files and folders directly in `folder`, a folder's name ending in `/`, in any order. See
    /// ``FileBackend/entryNames(in:)``.
    ///
    /// - Throws: ``FileStoreError/listFailed(path:reason:)``.
    nonisolated(nonsending) func entryNames(in folder: StoredFilePath) async throws -> [String]

    /// Removes every file and folder of this store, and nothing else.
    ///
    /// - Throws: ``FileStoreError/deleteFailed(path:reason:)`` with an empty path.
    nonisolated(nonsending) func removeAll() async throws

    /// The sum of the sizes, in bytes, of every file of this store.
    ///
    /// - Throws: ``FileStoreError/listFailed(path:reason:)`` with an empty path.
    nonisolated(nonsending) func storedSize() async throws -> Int

    /// Every file of this store, at any depth, with its size and modification date, sorted by path as Swift sorts
    /// strings. See ``FileBackend/allFiles()``.
    ///
    /// The default walks the folders with ``entryNames(in:)`` and asks ``storedFileInfo(at:)`` for each file: a call
    /// to the server per folder and per file. A store that can answer in one call implements it (`PostgresFileStore`
    /// does, in one statement).
    ///
    /// - Throws: ``FileStoreError/listFailed(path:reason:)``, or what ``storedFileInfo(at:)`` throws.
    nonisolated(nonsending) func allFiles() async throws -> [StoredFileInfo]
}
