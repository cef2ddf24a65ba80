import ForgeFileStore
import Foundation

/// A store as a user writes one behind a network: the requirements of ``AsyncFileBackend`` and nothing else, each
/// answered by a ``TableFileStore`` (its "server").
///
/// It lets the tests run what the library writes once on ``AsyncFileBackend`` (the default `allFiles()` walk, the
/// async `fileInfo(at:)`) without a database.
struct AsyncTableFileStore: AsyncFileStoring, AsyncFileBackend {
    let server: TableFileStore

    func contents(at path: StoredFilePath) async throws -> Data? {
        try server.contents(at: path)
    }

    func write(_ data: Data, at path: StoredFilePath, replacing: Bool) async throws {
        try server.write(data, at: path, replacing: replacing)
    }

    func removeFile(at path: StoredFilePath) async throws -> Bool {
        try server.removeFile(at: path)
    }

    func hasFile(at path: StoredFilePath) async throws -> Bool {
        server.hasFile(at: path)
    }

    func storedFileInfo(at path: StoredFilePath) async throws -> StoredFileInfo? {
        server.storedFileInfo(at: path)
    }

    func entryNames(in folder: StoredFilePath) async throws -> [String] {
        server.entryNames(in: folder)
    }

    func removeAll() async throws {
        server.removeAll()
    }

    func storedSize() async throws -> Int {
        server.storedSize()
    }
}
