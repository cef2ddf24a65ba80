internal import ForgeCore

/// A ``KVStoring`` wrapper that adds per-key observation with `AsyncStream`.
///
/// Wrap any store, use the wrapper as you would the store, and observe keys with ``stream(_:)``. Observation
/// starts when `stream(_:)` is called, so make the stream before the writes it must see, then iterate it:
///
/// ```swift
/// let reactive = ReactiveKVStore(UserDefaultsKVStore())
/// let counts = reactive.stream(TaskKeys.taskCount)  // observes from here on
/// Task {
///     for await count in counts {
///         print("Task count: \(count ?? 0)")
///     }
/// }
/// try reactive.set(TaskKeys.taskCount, value: 3)
/// ```
///
/// Writes made through the wrapper are observed at once. Over a ``DiskKVStore``, the writes other instances and
/// processes make on the same folder are observed too, through one watch of the folder while any stream of the
/// wrapper is live (inotify on Linux; on Apple platforms a dispatch source, which tells that the folder changed, so
/// every observed key is read again): each change is read when its notification arrives, so a burst of writes from
/// elsewhere may show as its latest value. Over a ``UserDefaultsKVStore``, the changes every other
/// `UserDefaultsKVStore` of the same domain makes in the process are observed as they are made; on Linux also
/// what other processes flush to the domain's property list, and on Apple platforms what other code of the process
/// changes through the same `UserDefaults` instance and what other processes (an app group's other apps and
/// extensions) change, with the limits ``UserDefaultsKVStore`` states. Over other stores,
/// only the wrapper's writes are observed (over another `ReactiveKVStore`, the writes made through that one too: it
/// is ``KVChangeObserving``). Reads and writes go straight to the wrapped store, with no cache. After
/// each change the key is re-read from the wrapped store, once for all the streams that read it as one type, so each
/// stream emits what the store now holds, as its type reads it. Streams of other keys add nothing to a write. Values
/// that do not decode are reported when the wrapped store is a `ReportingKVStore` (`reportingDecodingFailures(to:)`),
/// streams' reads included; wrapping the `ReactiveKVStore` itself reports what its `get` reads, not its streams.
///
/// > Tip: A write never waits for an observer. Each stream buffers what its consumer has not read yet,
/// > so a slow consumer still sees every change, in order.
public final class ReactiveKVStore: Sendable {
    /// The wrapped store.
    public let base: any KVStoring

    /// The channels of the observed keys, and the counter that orders their updates.
    private let registry = LockedState(Registry())

    /// The watch of the wrapped store's changes from other instances and processes, while a stream is live.
    private let outsideChanges = LockedState<ChangeObservation?>(nil)

    /// The wrapped store's watches of single keys, by observed key and then by the name watched (the key's own and
    /// the older names its migrations read), while the key has a stream.
    ///
    /// Changed only with its lock held, which is taken before the registry's and never inside it, so watches start
    /// and end in the order the registry changed. A name the store cannot watch alone holds an observation that
    /// does nothing, so that it is not asked again.
    private let keyObservations = LockedState<[String: [String: ChangeObservation]]>([:])

    /// Who observes this wrapper's own writes (another ``ReactiveKVStore`` or wrapper over this one).
    private let writeObservers = LockedState(KVChangeObservers())

    /// Creates a wrapper that observes the writes made through it to `base`.
    public init(_ base: any KVStoring) {
        self.base = base
    }

    /// Ends every stream: no change can reach them through this wrapper any more.
    deinit {
        let channels = registry.withLock { $0.channels.values.flatMap { $0.map(\.channel) } }
        for channel in channels { channel.finish() }
        // The streams' termination handlers no longer reach this wrapper: its watches of single keys end here (the
        // watch of the whole store ends as it is released).
        let watches = keyObservations.withLock { observations in
            defer { observations = [:] }
            return observations.values.flatMap(\.values)
        }
        for watch in watches { watch.end() }
    }

    /// A stream of the value stored for `key`: the current value at once, then the value after every change
    /// made through this wrapper, skipping values stored identically to the one emitted before (equal, and
    /// encoded to the same JSON: `-0.0` after `0.0` is emitted; ``KVStreamFilter`` has the rule).
    ///
    /// The stream emits what ``get(_:)`` reads, whatever name the value came from: a change of the key, or of an
    /// older name its migrations read, refreshes it. ``remove(_:)`` and ``removeAll()`` emit nil. The stream ends
    /// when the consuming task is cancelled or the wrapper is released; its observer is released with it. The stream
    /// of a key with a default (`stream(_:)` taking a ``KVKeyWithDefault``, which every ``AsyncKVStreaming`` store
    /// has) emits the default in place of nil.
    ///
    /// Observation starts when `stream(_:)` is called, not when the stream is first iterated: the stream listens
    /// for changes when `stream(_:)` returns (over a ``DiskKVStore``, the folder is watched by then), reads the
    /// current value then, and buffers every later change until it is consumed. A stream made inside a
    /// task that starts after a write (`Task { for await v in reactive.stream(key) { … } }` followed by
    /// `set`) misses that write, or sees only its result. To lose nothing, make the stream before the writes,
    /// then iterate it in a task or after writing:
    ///
    /// ```swift
    /// let counts = reactive.stream(TaskKeys.taskCount)   // the current value, say nil
    /// try reactive.set(TaskKeys.taskCount, value: 1)
    /// try reactive.set(TaskKeys.taskCount, value: 2)
    /// for await count in counts.prefix(3) { print(count as Any) }   // nil, Optional(1), Optional(2)
    /// ```
    ///
    /// Which values may fold into one (the last value is never lost: the stream ends on what the store holds):
    /// - Writes through the wrapper, one after another: none; each value is emitted, in order. Writes made at the
    ///   same time from several tasks are each read after they are made, so one read may see a later write, and
    ///   the values in between fold into it.
    /// - Over a ``DiskKVStore``, writes of other instances and processes on the folder: each is read when its
    ///   notification arrives, so a burst of them may fold into its latest value.
    /// - Over a ``UserDefaultsKVStore``, changes of other stores of the domain in the process are read as they
    ///   are made, as the wrapper's own; other processes' changes are read when they reach the domain (on Linux
    ///   when the other process flushes, which may fold what it changed since its last flush).
    /// - Over other stores only the wrapper's writes are observed: a write made to the wrapped store directly is
    ///   seen at the next change of the key through the wrapper, which reads what the store then holds.
    public func stream<T: Codable & Sendable & Equatable>(_ key: KVKey<T>) -> AsyncStream<T?> {
        let (stream, continuation) = AsyncStream<T?>.makeStream(bufferingPolicy: .unbounded)
        // Registered before the read, so every change numbered after `version` refreshes the channel.
        let wake = (base as? any ExpiringKVStoring)?.expiry
            .map { expiry in
                KVExpiryWake(clock: expiry.clock) { [weak self] in self?.notify(key: key.key) }
            }
        let (channel, id, version) = registry.withLock { $0.addStream(of: key, expiryWake: wake) }
        watchOutsideChanges()
        watchStoredNames(of: key.key)
        let (value, expiresAt) = KeyChannel.read(key, from: base)
        channel.join(continuation, id: id, value: value, expiringAt: expiresAt, version: version)
        // Weak: the channel holds the continuation, which holds this handler until the stream ends.
        continuation.onTermination = { [weak self, weak channel] _ in
            guard let self, let channel else { return }
            self.removeStream(id, of: channel, forKey: key.key)
        }
        return stream
    }

    /// The number of live streams, over all keys.
    var observerCount: Int {
        registry.withLock { $0.channels.values.joined().reduce(0) { $0 + $1.streams } }
    }

    /// Forgets the ended stream numbered `id`, and its channel when it was the channel's last stream.
    private func removeStream(_ id: Int, of channel: any AnyKeyChannel, forKey key: String) {
        registry.withLock { $0.removeStream(of: channel, forKey: key) }
        channel.leave(id)
        // Counted under the watch's lock, so a stream that starts meanwhile either keeps this watch or starts the
        // next one.
        let unwatched = outsideChanges.withLock { watch -> ChangeObservation? in
            guard observerCount == 0 else { return nil }
            defer { watch = nil }
            return watch
        }
        unwatched?.end()
        watchStoredNames(of: key)
    }

    /// Starts watching the wrapped store's changes from anywhere, when it can tell of them and no watch runs yet.
    private func watchOutsideChanges() {
        guard let observed = base as? any KVChangeObserving else { return }
        outsideChanges.withLock { watch in
            guard watch == nil else { return }
            watch = observed.observeChanges { [weak self] key in
                guard let self else { return }
                if let key { self.notify(storedNames: [key]) } else { self.notifyEveryKey() }
            }
        }
    }

    /// Has the wrapped store watch each name the channels of `key` read, and stop watching the names none reads any
    /// more: all of them once the key has no stream.
    ///
    /// Called after every change to the key's channels in the registry. The registry is read and the watches
    /// started under the watches' lock, so calls that race each other leave the watches the registry's final state
    /// asks for. The store is never called with the registry's lock held, and watches end after every lock is let
    /// go: a change that arrives meanwhile takes the registry's lock, and may wait for nothing of ours.
    private func watchStoredNames(of key: String) {
        guard let observed = base as? any KVChangeObserving else { return }
        let unwatched = keyObservations.withLock { observations -> [ChangeObservation] in
            let names = registry.withLock { $0.storedNames(of: key) }
            var watches = observations[key, default: [:]]
            var unwatched: [ChangeObservation] = []
            for (name, watch) in watches where !names.contains(name) {
                watches[name] = nil
                unwatched.append(watch)
            }
            for name in names where watches[name] == nil {
                let watch = observed.observeChanges(of: name) { [weak self] in self?.notify(key: key) }
                watches[name] = watch ?? ChangeObservation {}
            }
            observations[key] = watches.isEmpty ? nil : watches
            return unwatched
        }
        for watch in unwatched { watch.end() }
    }

    /// The names the wrapped store watches alone for each observed key, for tests.
    var watchedNames: [String: Set<String>] {
        keyObservations.withLock { $0.mapValues { Set($0.keys) } }
    }

    /// Tells the channels of the observed key `key` that it changed: each re-reads it and emits the value to its
    /// streams.
    private func notify(key: String) {
        let (channels, version) = registry.withLock { registry -> ([Registry.Entry], UInt64) in
            guard let channels = registry.channels[key] else { return ([], 0) }
            registry.version += 1
            return (channels, registry.version)
        }
        for entry in channels { entry.channel.refresh(from: base, version: version) }
    }

    /// Tells the channels that read one of `storedNames` that it changed.
    ///
    /// Those are the channels of the key of that name and of every key whose migrations read it. Each re-reads its
    /// key once and emits the value to its streams.
    func notify(storedNames: [String]) {
        let (channels, version) = registry.withLock { registry -> ([Registry.Entry], UInt64) in
            let channels = registry.channels(reading: storedNames)
            guard !channels.isEmpty else { return ([], 0) }
            registry.version += 1
            return (channels, registry.version)
        }
        for entry in channels { entry.channel.refresh(from: base, version: version) }
    }

    /// Tells the channels of every key that their key changed.
    private func notifyEveryKey() {
        let (channels, version) = registry.withLock { registry -> ([Registry.Entry], UInt64) in
            guard !registry.channels.isEmpty else { return ([], 0) }
            registry.version += 1
            return (Array(registry.channels.values.joined()), registry.version)
        }
        for entry in channels { entry.channel.refresh(from: base, version: version) }
    }
}

extension ReactiveKVStore: KVStoring {
    /// Returns the wrapped store's value for `key`; the wrapped store reports a value that does not decode.
    public func get<T: Codable & Sendable>(_ key: KVKey<T>) -> T? {
        base.get(key)
    }

    /// Returns the wrapped store's value for `key`, and throws what it throws.
    public func value<T: Codable & Sendable>(for key: KVKey<T>) throws -> T? {
        try base.value(for: key)
    }

    /// The wrapped store's keys.
    public func keys() throws -> [String] {
        try base.keys()
    }

    /// Stores `value` in the wrapped store, then updates the streams of `key` and those of every key whose
    /// migrations read `key`'s name.
    public func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) throws {
        try base.set(key, value: value)
        changed([key.key])
    }

    /// Removes `key` from the wrapped store, then updates the streams of every key that reads one of the names
    /// removed: `key`'s own and the older names its migrations read.
    public func remove<T: Codable & Sendable>(_ key: KVKey<T>) throws {
        try base.remove(key)
        changed(key.storedNames)
    }

    /// Returns true when the wrapped store holds `key`.
    public func contains<T: Codable & Sendable>(_ key: KVKey<T>) -> Bool {
        base.contains(key)
    }

    /// Removes everything from the wrapped store, then emits nil to every stream.
    public func removeAll() throws {
        try base.removeAll()
        changed(nil)
    }
}

extension ReactiveKVStore: KVChangeObserving {
    /// Calls `onChange` for each write made through this wrapper, by key (nil for ``removeAll()``), and for each change
    /// the wrapped store tells of when it can: so a ``ReactiveKVStore`` over this one sees the writes made through this
    /// one.
    public func observeChanges(_ onChange: @escaping @Sendable (_ key: String?) -> Void) -> ChangeObservation {
        let id = writeObservers.withLock { $0.add(onChange) }
        let outside = (base as? any KVChangeObserving)?.observeChanges(onChange)
        return ChangeObservation { [weak self] in
            outside?.end()
            self?.writeObservers.withLock { $0.remove(id) }
        }
    }

    /// The wrapped store's watch of the name `key`, when it has one: see ``KVChangeObserving/observeChanges(of:_:)``.
    public func observeChanges(of key: String, _ onChange: @escaping @Sendable () -> Void) -> ChangeObservation? {
        (base as? any KVChangeObserving)?.observeChanges(of: key, onChange)
    }

    /// Updates the streams that read one of `names` (every stream, for nil), then tells this wrapper's observers: what
    /// every write through the wrapper does once the wrapped store has it.
    func changed(_ names: [String]?) {
        guard let names else {
            notifyEveryKey()
            for observer in writeObservers.withLock({ $0.all }) { observer(nil) }
            return
        }
        notify(storedNames: names)
        for observer in writeObservers.withLock({ $0.all }) {
            for name in names { observer(name) }
        }
    }
}

/// The channels of a ``ReactiveKVStore``, and the counter that orders their updates.
private struct Registry: Sendable {
    /// One channel in the registry, with the number of its streams.
    struct Entry: Sendable {
        /// The channel.
        let channel: any AnyKeyChannel
        /// How many streams joined the channel and have not ended; at zero the channel leaves the registry.
        var streams: Int
    }

    /// The number given to the last stream.
    var lastStreamID = 0
    /// Incremented by every change that has observers; a channel drops an update not newer than its last one.
    var version: UInt64 = 0
    /// The channels of each observed key, one per value type and migrations it is observed with.
    var channels: [String: [Entry]] = [:]
    /// The observed keys whose channels read each stored name: the key of that name, and the keys whose migrations
    /// read it.
    var readers: [String: Set<String>] = [:]

    /// Counts a new stream of `key` in its channel, made if it is the first of its type and migrations.
    ///
    /// Returns the channel, the stream's number and the current version. The stream is counted here, under the
    /// registry's lock, so its channel cannot leave the registry between this call and the stream joining it.
    mutating func addStream<T: Codable & Sendable & Equatable>(
        of key: KVKey<T>,
        expiryWake: KVExpiryWake?
    ) -> (channel: KeyChannel<T>, id: Int, version: UInt64) {
        lastStreamID += 1
        // The new stream's read comes after every change numbered so far, and after changes made to the wrapped
        // store directly, which have no number: it is newer than anything the channel has applied.
        version += 1
        var entries = channels[key.key, default: []]
        let channel: KeyChannel<T>
        // Streams share a channel only when their keys read alike: a key with other migrations reads otherwise.
        if let index = entries.firstIndex(where: { ($0.channel as? KeyChannel<T>)?.key.readsAlike(key) == true }),
            let existing = entries[index].channel as? KeyChannel<T>
        {
            entries[index].streams += 1
            channel = existing
        } else {
            channel = KeyChannel(key: key, expiryWake: expiryWake)
            entries.append(Entry(channel: channel, streams: 1))
            for name in key.storedNames { readers[name, default: []].insert(key.key) }
        }
        channels[key.key] = entries
        return (channel, lastStreamID, version)
    }

    /// The channels that read one of `names`, each once.
    func channels(reading names: [String]) -> [Entry] {
        var keys = Set<String>()
        for name in names { keys.formUnion(readers[name] ?? []) }
        return keys.flatMap { channels[$0] ?? [] }
    }

    /// The names the channels of `key` read: the key's own, and the older names their keys' migrations read.
    func storedNames(of key: String) -> Set<String> {
        Set((channels[key] ?? []).flatMap(\.channel.storedNames))
    }

    /// Uncounts a stream of `channel`, and removes the channel when it was its last.
    mutating func removeStream(of channel: any AnyKeyChannel, forKey key: String) {
        guard var entries = channels[key], let index = entries.firstIndex(where: { $0.channel === channel }) else {
            return
        }
        entries[index].streams -= 1
        guard entries[index].streams == 0 else {
            channels[key] = entries
            return
        }
        entries.remove(at: index)
        channels[key] = entries.isEmpty ? nil : entries
        let stillRead = storedNames(of: key)
        for name in channel.storedNames where !stillRead.contains(name) {
            readers[name]?.remove(key)
            if readers[name]?.isEmpty == true { readers[name] = nil }
        }
    }
}
