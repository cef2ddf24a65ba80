public import Foundation

/// Every requirement of ``FileStoring`` for a store built on a ``FileBackend``, written once: a store that declares
/// both protocols implements only the backend's requirements.
extension FileStoring where Self: FileBackend {
    /// Saves `data` at `path`, creating the folders on the way.
    ///
    /// - Throws: See ``FileStoring/save(_:to:overwrite:)``.
    public nonisolated(nonsending) func save(_ data: Data, to path: String, overwrite: Bool) async throws {
        let file = try StoredFilePath(validating: path)
        do {
            try await write(data, at: file, replacing: overwrite)
        } catch {
            throw FileStoreError.naming(error, path: path)
        }
    }

    /// Returns the contents of the file at `path`.
    ///
    /// - Throws: See ``FileStoring/load(_:)``.
    public nonisolated(nonsending) func load(_ path: String) async throws -> Data {
        let file = try StoredFilePath(validating: path)
        let data: Data?
        do {
            data = try await contents(at: file)
        } catch {
            throw FileStoreError.naming(error, path: path)
        }
        guard let data else { throw FileStoreError.notFound(path: path) }
        return data
    }

    /// Returns true when a file is stored at `path`; false for folders and invalid paths.
    public func exists(_ path: String) -> Bool {
        guard let file = try? StoredFilePath(validating: path) else { return false }
        return hasFile(at: file)
    }

    /// Deletes the file at `path`, and the folders this leaves empty.
    ///
    /// - Throws: See ``FileStoring/delete(_:)``.
    public nonisolated(nonsending) func delete(_ path: String) async throws {
        let file = try StoredFilePath(validating: path)
        let removed: Bool
        do {
            removed = try await removeFile(at: file)
        } catch {
            throw FileStoreError.naming(error, path: path)
        }
        guard removed else { throw FileStoreError.notFound(path: path) }
    }

    /// Returns the files and sub-folders directly in `folder`, sorted; sub-folders end in `/`.
    ///
    /// - Throws: See ``FileStoring/list(in:)``.
    public nonisolated(nonsending) func list(in folder: String) async throws -> [String] {
        let checked = try StoredFilePath(validatingFolder: folder)
        do {
            return FileListing.paths(of: try await entryNames(in: checked), in: checked)
        } catch {
            throw FileStoreError.naming(error, path: folder)
        }
    }

    /// Deletes every file and folder of this store, and nothing else.
    ///
    /// - Throws: See ``FileStoring/deleteAll()``.
    public nonisolated(nonsending) func deleteAll() async throws {
        do {
            try await removeAll()
        } catch {
            throw FileStoreError.naming(error, path: "")
        }
    }

    /// The sum of the sizes, in bytes, of every file in the store.
    ///
    /// - Throws: See ``FileStoring/totalSize()``.
    public nonisolated(nonsending) func totalSize() async throws -> Int {
        do {
            return try await storedSize()
        } catch {
            throw FileStoreError.naming(error, path: "")
        }
    }
}
