public import Foundation

/// The asynchronous form of ``FileStoring``, ``exists(_:)`` included, for stores behind a network.
///
/// ``FileStoring`` follows the reference API, where `exists` is synchronous: a local store answers it with one
/// `stat`, and views call it while they draw. A store behind a network cannot answer without waiting on its
/// server, and blocking a thread for that would stall a server's event loops, so such a store conforms to this
/// protocol only, where ``exists(_:)`` is `async throws` like every other operation. Write a service against this
/// protocol and it runs on every store: ``DiskFileStore`` and ``InMemoryFileStore`` conform as they are.
///
/// Every requirement means what the ``FileStoring`` requirement of the same name means: the same path rules, errors,
/// listing order and sizes. What ``FileStoring`` adds above its requirements comes here too: ``save(_:to:)``,
/// ``saveJSON(_:to:overwrite:)``, ``loadJSON(_:as:)`` and ``loadJSONIfExists(_:as:)``, and streams of changes for a
/// store that can observe them (``AsyncFileChangeObserving``).
///
/// ## Writing a store
/// Build it on ``AsyncFileBackend``: declare both protocols and implement the backend's eight requirements (read,
/// write, remove and find a file at a checked path, its size and date, list a folder's names, remove all, total size),
/// and every requirement here comes with them, the policy ``FileStoring``'s stores get, with
/// ``AsyncFileBackend/fileInfo(at:)`` and ``AsyncFileBackend/allFiles()``. `AsyncFileStoringConformance` in
/// ForgeStorageTesting holds a store to all of it.
public protocol AsyncFileStoring: Sendable {
    /// Saves `data` at `path`, creating the folders on the way. See ``FileStoring/save(_:to:overwrite:)``.
    nonisolated(nonsending) func save(_ data: Data, to path: String, overwrite: Bool) async throws

    /// Returns the contents of the file at `path`. See ``FileStoring/load(_:)``.
    nonisolated(nonsending) func load(_ path: String) async throws -> Data

    /// Returns true when a file is stored at `path`; false for folders and invalid paths.
    ///
    /// - Throws: ``FileStoreError/readFailed(path:reason:)`` when the store cannot tell, as when its server cannot
    ///   be reached; a local store never throws.
    nonisolated(nonsending) func exists(_ path: String) async throws -> Bool

    /// Deletes the file at `path`, and the folders this leaves empty. See ``FileStoring/delete(_:)``.
    nonisolated(nonsending) func delete(_ path: String) async throws

    /// Returns what is directly in the folder at `folder`, sorted. See ``FileStoring/list(in:)``.
    nonisolated(nonsending) func list(in folder: String) async throws -> [String]

    /// Deletes every file and folder of this store, and nothing else.
    nonisolated(nonsending) func deleteAll() async throws

    /// The sum of the sizes, in bytes, of every file in the store.
    nonisolated(nonsending) func totalSize() async throws -> Int
}

extension AsyncFileStoring {
    /// Saves `data` at `path`, replacing any file stored there.
    ///
    /// - Parameters:
    ///   - data: The bytes to store.
    ///   - path: The relative path of the file.
    /// - Throws: See ``save(_:to:overwrite:)``.
    public func save(_ data: Data, to path: String) async throws {
        try await save(data, to: path, overwrite: true)
    }
}

// Their `FileStoring` requirements, from `FileBackend`, meet these as they are: a synchronous `exists` meets an
// asynchronous one.
extension DiskFileStore: AsyncFileStoring {}
extension InMemoryFileStore: AsyncFileStoring {}
