internal import ForgeCore

/// A store that can tell of changes made to it by other instances and processes, which ``ReactiveKVStore`` then
/// emits to its streams.
protocol KVChangeObserving: KVStoring {
    /// Calls `onChange` with the key that changed, or nil when any may have, for every change to the store from
    /// anywhere, until the returned observation ends.
    func observeChanges(_ onChange: @escaping @Sendable (_ key: String?) -> Void) -> ChangeObservation
}

extension DiskKVStore: KVChangeObserving {
    /// Watches the namespace folder: a key file written, renamed into place or removed is that key's change; a
    /// file of a key too long for a file name, the folder appearing or going, is a change of any key.
    func observeChanges(_ onChange: @escaping @Sendable (_ key: String?) -> Void) -> ChangeObservation {
        FolderWatch.observe(folder.path) { name in
            guard let name else { return onChange(nil) }
            guard !TemporaryName.isTemporary(name), name.hasSuffix(KeyFileName.fileExtension) else { return }
            onChange(KeyFileName.key(ofExactName: name))
        }
    }
}
