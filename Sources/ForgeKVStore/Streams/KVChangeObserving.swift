internal import ForgeCore

/// A store that can tell of changes made to it by other instances and processes, which ``ReactiveKVStore`` then
/// emits to its streams: a capability a store may add to ``KVBackend``.
///
/// ``DiskKVStore`` watches its folder and ``UserDefaultsKVStore`` its suite; a store of your own (a database that
/// notifies of commits) conforms, and a ``ReactiveKVStore`` over it streams what other processes write.
public protocol KVChangeObserving: KVStoring {
    /// Calls `onChange` with the key that changed, or nil when any may have, for every change to the store from
    /// anywhere, until the returned observation ends.
    func observeChanges(_ onChange: @escaping @Sendable (_ key: String?) -> Void) -> ChangeObservation

    /// Calls `onChange` for every change to the value stored under the name `key`, until the returned observation
    /// ends; nil when the store has no way to watch one key, or needs none.
    ///
    /// ``ReactiveKVStore`` asks for this when a key gets its first stream, once for each name the key is stored
    /// under (its own and the older names its migrations read), and ends the observation when the key's last stream
    /// ends. It is for changes the store learns of only key by key; ``observeChanges(_:)`` still runs beside it, so a
    /// change may be told by both.
    ///
    /// - Parameters:
    ///   - key: The name a value is stored under, as a ``KVKey`` spells it.
    ///   - onChange: Called after each change, on any thread; it may read the store.
    /// - Returns: The observation, or nil when the store watches no single key.
    func observeChanges(of key: String, _ onChange: @escaping @Sendable () -> Void) -> ChangeObservation?
}

extension KVChangeObserving {
    /// Watches no single key: ``observeChanges(_:)`` tells of every change.
    public func observeChanges(of key: String, _ onChange: @escaping @Sendable () -> Void) -> ChangeObservation? {
        nil
    }
}

extension DiskKVStore: KVChangeObserving {
    /// Watches the namespace folder: a key file written, renamed into place or removed is that key's change; a
    /// file of a key too long for a file name, the folder appearing or going, is a change of any key.
    public func observeChanges(_ onChange: @escaping @Sendable (_ key: String?) -> Void) -> ChangeObservation {
        FolderWatch.observe(folder.path) { name in
            guard let name else { return onChange(nil) }
            guard !TemporaryName.isTemporary(name), name.hasSuffix(KeyFileName.fileExtension) else { return }
            onChange(KeyFileName.key(ofExactName: name))
        }
    }
}
