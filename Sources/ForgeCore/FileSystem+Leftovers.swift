extension FileSystem {
    /// The folders whose leftovers this process has already removed.
    private static let sweptFolders = LockedState<Set<String>>([])

    /// Removes what crashed writers left in and beside the store folder at `path`, once per process.
    ///
    /// That is the temporary files of dead processes in the folder and beneath it (with the folders they
    /// leave empty), and the hidden sibling a crashed ``removeDirectoryTree(atPath:)`` of the folder left.
    /// Stores call it when they are created; later stores for the same folder in the same process skip the
    /// walk, since a running process leaves no orphans of its own. A store created while the first sweep still
    /// runs does not wait for it: the sweep removes only files that no store reads, lists or writes, and a write
    /// whose new folder it removes as empty starts again.
    package static func removeLeftoversOnce(inFolder path: String) {
        guard sweptFolders.withLock({ $0.insert(path).inserted }) else { return }
        ConfinedFolder(path: path).removeOrphanedTemporaryFiles()
        let (parent, name) = split(path)
        removeOrphanedTemporaryFiles(inDirectory: parent, forName: name)
    }
}
