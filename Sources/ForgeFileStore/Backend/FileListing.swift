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
}
