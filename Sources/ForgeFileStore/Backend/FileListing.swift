/// The listing rule of every file store, sync or async: the names a backend found directly in a folder, sorted as
/// Swift sorts strings, each once, as paths relative to the store.
enum FileListing {
    /// `names`, the entries of `folder` as ``FileBackend/entryNames(in:)`` gives them, as ``FileStoring/list(in:)``
    /// returns them.
    ///
    /// Sorted before the folder's path is put in front: the same order, on short names that compare faster.
    static func paths(of names: [String], in folder: StoredFilePath) -> [String] {
        let sorted = names.sorted()
        let prefix = folder.string.isEmpty ? "" : folder.string + "/"
        var paths: [String] = []
        paths.reserveCapacity(sorted.count)
        var previous: String?
        // A store may find one name twice (a sub-folder once per file beneath it): it is listed once.
        for name in sorted where name != previous {
            paths.append(prefix.isEmpty ? name : prefix + name)
            previous = name
        }
        return paths
    }

    /// Every file below the top folder with its size and date, sorted by path.
    ///
    /// The folders are walked with `entryNames`, each file looked up with `info`: the walk behind every store's
    /// default `allFiles()`, sync or async.
    nonisolated(nonsending) static func allFiles(
        entryNames: nonisolated(nonsending) (StoredFilePath) async throws -> [String],
        info: nonisolated(nonsending) (StoredFilePath) async throws -> StoredFileInfo?
    ) async throws -> [StoredFileInfo] {
        var files: [StoredFileInfo] = []
        var folders = [try StoredFilePath(validatingFolder: "")]
        while let folder = folders.popLast() {
            for path in paths(of: try await entryNames(folder), in: folder) {
                if path.hasSuffix("/") {
                    folders.append(try StoredFilePath(validatingFolder: path))
                } else if let file = try await info(StoredFilePath(validating: path)) {
                    files.append(file)
                }
            }
        }
        return files.sorted { $0.path < $1.path }
    }
}
