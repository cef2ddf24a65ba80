internal import ForgeFileStore
internal import Foundation

/// A `FileStoring` seen as an `AsyncFileStoring`: each method calls the store's own method of the same name.
///
/// It lets ``FileStoringConformance`` run the checks ``AsyncFileStoringConformance`` defines against any
/// `FileStoring`, one that does not conform to `AsyncFileStoring` included, through its own methods (its
/// synchronous `exists` among them).
struct SynchronousFileStore: AsyncFileStoring {
    /// The store every call goes to.
    let base: any FileStoring

    init(_ base: any FileStoring) {
        self.base = base
    }

    func save(_ data: Data, to path: String, overwrite: Bool) async throws {
        try await base.save(data, to: path, overwrite: overwrite)
    }

    func load(_ path: String) async throws -> Data { try await base.load(path) }

    func exists(_ path: String) async throws -> Bool { base.exists(path) }

    func delete(_ path: String) async throws { try await base.delete(path) }

    func list(in folder: String) async throws -> [String] { try await base.list(in: folder) }

    func deleteAll() async throws { try await base.deleteAll() }

    func totalSize() async throws -> Int { try await base.totalSize() }
}
