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
/// Only writes made through the wrapper are observed; reads and writes go straight to the wrapped store,
/// with no cache. A stream re-reads its key from the wrapped store after each change, so it emits what
/// the store now holds, as the observer's type reads it.
///
/// > Tip: A write never waits for an observer. Each stream buffers what its consumer has not read yet,
/// > so a slow consumer still sees every change, in order.
public final class ReactiveKVStore: Sendable {
    /// The wrapped store.
    public let base: any KVStoring

    private let registry = LockedState(Registry())

    /// Creates a wrapper that observes the writes made through it to `base`.
    public init(_ base: any KVStoring) {
        self.base = base
    }

    deinit {
        let observers = registry.withLock { $0.observers.values.flatMap(\.values) }
        for observer in observers { observer.finish() }
    }

    /// A stream of the value stored for `key`: the current value at once, then the value after every change
    /// made through this wrapper, skipping values stored identically to the one emitted before (equal, and
    /// encoded to the same JSON: `-0.0` after `0.0` is emitted).
    ///
    /// ``remove(_:)`` and ``removeAll()`` emit nil. The stream ends when the consuming task is cancelled or
    /// the wrapper is released; its observer is released with it.
    ///
    /// Observation starts when `stream(_:)` is called, not when the stream is first iterated: the stream reads
    /// the current value then, and buffers every later change until it is consumed. A stream made inside a
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
    public func stream<T: Codable & Sendable & Equatable>(_ key: KVKey<T>) -> AsyncStream<T?> {
        let (stream, continuation) = AsyncStream<T?>.makeStream(bufferingPolicy: .unbounded)
        let observer = KeyObserver(key: key, continuation: continuation)
        let (id, version) = registry.withLock { registry in
            registry.nextObserverID += 1
            registry.observers[key.key, default: [:]][registry.nextObserverID] = observer
            return (registry.nextObserverID, registry.version)
        }
        continuation.onTermination = { [weak self] _ in
            self?.removeObserver(id, forKey: key.key)
        }
        var reads = ReadCache()
        observer.refresh(from: base, version: version, reads: &reads)
        return stream
    }

    /// The number of live streams, over all keys.
    var observerCount: Int {
        registry.withLock { $0.observers.values.reduce(0) { $0 + $1.count } }
    }

    private func removeObserver(_ id: Int, forKey key: String) {
        registry.withLock { registry in
            registry.observers[key]?[id] = nil
            if registry.observers[key]?.isEmpty == true { registry.observers[key] = nil }
        }
    }

    /// Tells the observers of `keys` (or of every key, when nil) to re-read their value.
    private func notify(keys: [String]?) {
        let (observers, version): ([any ValueObserver], UInt64) = registry.withLock { registry in
            let affected: [any ValueObserver]
            if let keys {
                affected = keys.flatMap { registry.observers[$0].map { Array($0.values) } ?? [] }
            } else {
                affected = registry.observers.values.flatMap(\.values)
            }
            guard !affected.isEmpty else { return ([], 0) }
            registry.version += 1
            return (affected, registry.version)
        }
        var reads = ReadCache()
        for observer in observers {
            observer.refresh(from: base, version: version, reads: &reads)
        }
    }
}

extension ReactiveKVStore: KVStoring {
    /// Returns the wrapped store's value for `key`.
    public func get<T: Codable & Sendable>(_ key: KVKey<T>) -> T? {
        base.get(key)
    }

    /// Stores `value` in the wrapped store, then updates the streams of `key`.
    public func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) throws {
        try base.set(key, value: value)
        notify(keys: [key.key])
    }

    /// Removes `key` from the wrapped store, then emits nil to its streams.
    public func remove<T: Codable & Sendable>(_ key: KVKey<T>) throws {
        try base.remove(key)
        notify(keys: [key.key])
    }

    /// Returns true when the wrapped store holds `key`.
    public func contains<T: Codable & Sendable>(_ key: KVKey<T>) -> Bool {
        base.contains(key)
    }

    /// Removes everything from the wrapped store, then emits nil to every stream.
    public func removeAll() throws {
        try base.removeAll()
        notify(keys: nil)
    }
}

/// The streams of a ``ReactiveKVStore``, and the counter that orders their updates.
private struct Registry: Sendable {
    var nextObserverID = 0
    /// Incremented by every write that has observers; an update older than the last one emitted is dropped.
    var version: UInt64 = 0
    var observers: [String: [Int: any ValueObserver]] = [:]
}

/// Values read during one notification, by key and type, so observers sharing both read the store once.
private struct ReadCache {
    /// One value read, nil included (a plain optional in the dictionary would drop nils).
    struct Hit {
        let value: any Sendable
    }

    var values: [ReadCacheKey: Hit] = [:]
}

private struct ReadCacheKey: Hashable {
    let key: String
    let type: ObjectIdentifier
}

/// A stream's observer, with its value type erased.
private protocol ValueObserver: Sendable {
    func refresh(from base: any KVStoring, version: UInt64, reads: inout ReadCache)
    func finish()
}

/// One stream: re-reads its key and emits the value when it changed.
private final class KeyObserver<T: Codable & Sendable & Equatable>: ValueObserver {
    private let key: KVKey<T>
    private let continuation: AsyncStream<T?>.Continuation
    private let state = LockedState(EmissionState())

    private struct EmissionState {
        var lastVersion: UInt64 = 0
        var hasEmitted = false
        var lastValue: T?
    }

    init(key: KVKey<T>, continuation: AsyncStream<T?>.Continuation) {
        self.key = key
        self.continuation = continuation
    }

    func refresh(from base: any KVStoring, version: UInt64, reads: inout ReadCache) {
        let cacheKey = ReadCacheKey(key: key.key, type: ObjectIdentifier(T.self))
        let value: T?
        if let hit = reads.values[cacheKey], let cached = hit.value as? T? {
            value = cached
        } else {
            value = base.get(key)
            reads.values[cacheKey] = ReadCache.Hit(value: value)
        }
        // The read happened outside any lock; emit it only if no newer update has been emitted since.
        state.withLock { state in
            guard version >= state.lastVersion else { return }
            state.lastVersion = version
            guard !state.hasEmitted || !Self.isStoredIdentically(state.lastValue, value) else { return }
            state.hasEmitted = true
            state.lastValue = value
            continuation.yield(value)
        }
    }

    func finish() {
        continuation.finish()
    }

    /// Whether `a` and `b` are stored as the same bytes: equal, and equal in their JSON.
    ///
    /// `==` alone is not enough: `0.0 == -0.0`, yet the store holds one or the other, and the stream's last
    /// value must be what the store holds.
    private static func isStoredIdentically(_ a: T?, _ b: T?) -> Bool {
        guard a == b else { return false }
        guard let a, let b else { return true }
        return (try? JSONCodec.encode(a)) == (try? JSONCodec.encode(b))
    }
}
