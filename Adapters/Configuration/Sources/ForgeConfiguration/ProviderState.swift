internal import Configuration

/// A ``ForgeConfigProvider``'s mutable state, which its one lock guards: the values, the number of each one's last
/// change, the store keys to follow, and the watchers to tell.
///
/// Watchers are told inside the lock (a yield to an `AsyncStream` runs none of the consumer's code), so each sees the
/// changes in the order they were made.
struct ProviderState {
    /// A watcher of one key, as one type.
    struct ValueWatcher {
        let key: AbsoluteConfigKey
        let type: ConfigType
        let continuation: AsyncStream<Result<LookupResult, any Error>>.Continuation
    }

    /// The values by store key.
    private(set) var values: [String: StoredConfigValue] = [:]
    /// The number of the last change of any value; each change takes the next one.
    private(set) var version: UInt64 = 0
    /// Whether a load has read the store.
    private(set) var hasLoaded = false
    /// The number of each store key's last change (a removal included).
    private var lastChange: [String: UInt64] = [:]
    /// The store keys to follow: those a load found and those a reader asked for.
    private var known: Set<String> = []
    /// Where each running follower of every known key learns of a new one.
    private var feeds: [Int: AsyncStream<String>.Continuation] = [:]
    /// The value watchers, by store key and number.
    private var valueWatchers: [String: [Int: ValueWatcher]] = [:]
    /// The snapshot watchers, by number.
    private var snapshotWatchers: [Int: AsyncStream<any ConfigSnapshot>.Continuation] = [:]
    /// The number the next feed or watcher gets.
    private var nextID = 0

    /// The values as a snapshot.
    func snapshot(_ lookup: ConfigValueLookup) -> ForgeConfigSnapshot {
        ForgeConfigSnapshot(lookup: lookup, values: values)
    }

    /// Adds `storeKey` to the keys to follow, and tells the running followers when it is new.
    mutating func know(_ storeKey: String) {
        guard known.insert(storeKey).inserted else { return }
        for feed in feeds.values { feed.yield(storeKey) }
    }

    /// Adds a feed of the keys to follow, which is given every known key at once; returns its number.
    mutating func addFeed(_ feed: AsyncStream<String>.Continuation) -> Int {
        for storeKey in known { feed.yield(storeKey) }
        let id = takeID()
        feeds[id] = feed
        return id
    }

    /// Removes the feed numbered `id`.
    mutating func removeFeed(_ id: Int) {
        feeds[id]?.finish()
        feeds[id] = nil
    }

    /// Adds `watcher` of `storeKey`, which is given the key's current result at once; returns its number.
    mutating func addValueWatcher(_ watcher: ValueWatcher, storeKey: String, lookup: ConfigValueLookup) -> Int {
        know(storeKey)
        watcher.continuation.yield(Self.result(of: watcher, storeKey: storeKey, stored: values[storeKey], lookup))
        let id = takeID()
        valueWatchers[storeKey, default: [:]][id] = watcher
        return id
    }

    /// Removes the watcher of `storeKey` numbered `id`.
    mutating func removeValueWatcher(_ id: Int, storeKey: String) {
        valueWatchers[storeKey]?[id]?.continuation.finish()
        valueWatchers[storeKey]?[id] = nil
        if valueWatchers[storeKey]?.isEmpty == true { valueWatchers[storeKey] = nil }
    }

    /// Adds a snapshot watcher, which is given the current snapshot at once; returns its number.
    mutating func addSnapshotWatcher(
        _ watcher: AsyncStream<any ConfigSnapshot>.Continuation,
        lookup: ConfigValueLookup
    ) -> Int {
        watcher.yield(snapshot(lookup))
        let id = takeID()
        snapshotWatchers[id] = watcher
        return id
    }

    /// Removes the snapshot watcher numbered `id`.
    mutating func removeSnapshotWatcher(_ id: Int) {
        snapshotWatchers[id]?.finish()
        snapshotWatchers[id] = nil
    }

    /// Records that a load read the store, and follows the keys it found.
    mutating func loaded(_ storeKeys: some Sequence<String>) {
        hasLoaded = true
        for storeKey in storeKeys { know(storeKey) }
    }

    /// Sets each store key of `changes` to its value (nil: none), and tells the watchers of what changed.
    ///
    /// With `since`, a key whose value changed after the change numbered `since` is left as it is: the change
    /// came from a read at least as recent (a follower's), and a read begun before it must not undo it.
    mutating func apply(
        _ changes: [(storeKey: String, value: StoredConfigValue?)],
        unchangedSince since: UInt64? = nil,
        lookup: ConfigValueLookup
    ) {
        var changed = false
        for (storeKey, value) in changes where values[storeKey] != value {
            if let since, let last = lastChange[storeKey], last > since { continue }
            version += 1
            lastChange[storeKey] = version
            values[storeKey] = value
            changed = true
            for watcher in valueWatchers[storeKey, default: [:]].values {
                watcher.continuation.yield(Self.result(of: watcher, storeKey: storeKey, stored: value, lookup))
            }
        }
        guard changed, !snapshotWatchers.isEmpty else { return }
        let snapshot = snapshot(lookup)
        for watcher in snapshotWatchers.values { watcher.yield(snapshot) }
    }

    /// What `watcher` is told of `storeKey` holding `stored`.
    private static func result(
        of watcher: ValueWatcher,
        storeKey: String,
        stored: StoredConfigValue?,
        _ lookup: ConfigValueLookup
    ) -> Result<LookupResult, any Error> {
        Result { try lookup.result(for: watcher.key, storeKey: storeKey, type: watcher.type, stored: stored) }
    }

    /// The next number for a feed or a watcher.
    private mutating func takeID() -> Int {
        nextID += 1
        return nextID
    }
}
