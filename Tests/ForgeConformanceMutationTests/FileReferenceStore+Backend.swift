import ForgeFileStore
import Foundation

/// The reference store seen as files at checked paths, so that what a tool inspects (`fileInfo(at:)`, `allFiles()`)
/// is checked too; each requirement calls the store's own typed method, which stays its own.
extension FileReferenceStore: FileBackend {
    func contents(at path: StoredFilePath) async throws -> Data? {
        do {
            return try await load(path.string)
        } catch FileStoreError.notFound {
            return nil
        }
    }

    func write(_ data: Data, at path: StoredFilePath, replacing: Bool) async throws {
        try await save(data, to: path.string, overwrite: replacing)
    }

    func removeFile(at path: StoredFilePath) async throws -> Bool {
        do {
            try await delete(path.string)
            return true
        } catch FileStoreError.notFound {
            return false
        }
    }

    func hasFile(at path: StoredFilePath) -> Bool {
        exists(path.string)
    }

    func storedFileInfo(at path: StoredFilePath) throws -> StoredFileInfo? {
        let file = backing.namespaces.withLock { $0[namespace]?.files[key(path.string)] }
        return file.map { StoredFileInfo(path: $0.path, size: $0.data.count, modificationDate: $0.modificationDate) }
    }

    /// The entries `list(in:)` lists, as names within `folder` (`list` names them by their path in the store).
    func entryNames(in folder: StoredFilePath) async throws -> [String] {
        let prefix = folder.string.isEmpty ? "" : folder.string + "/"
        return try await list(in: folder.string).map { String($0.dropFirst(prefix.count)) }
    }

    func removeAll() async throws {
        try await deleteAll()
    }

    func storedSize() async throws -> Int {
        try await totalSize()
    }
}
