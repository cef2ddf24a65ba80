internal import Foundation
internal import ForgeCore

/// A dictionary-backed ``KVStoring`` for tests and previews: fast, thread-safe, and faithful.
///
/// Faithful means it keeps what a disk store would read back: `set` encodes the value with the same JSON
/// codec as ``DiskKVStore``, so a value that fails to encode fails here too, and `get` returns the value as
/// decoded from that encoding. Reading a key with another type than it was written with decodes that
/// encoding as the other type, as on disk; a class is read as the class the key declares (never as the
/// subclass instance that was written), and each read of a value holding class instances gives new
/// instances, as on disk. Values live as long as the instance.
///
/// ```swift
/// let store = InMemoryKVStore()
/// let service = SettingsService(store: store)
/// try service.setTaskCount(5)
/// #expect(store.get(TaskKeys.taskCount) == 5)
/// ```
public final class InMemoryKVStore: Sendable {
    private let entries = LockedState<[String: Entry]>([:])
    /// The faults and operation log a test asked for; nil (one check per call) for a plain store.
    let instrument: (any StoreInstrument)?

    /// One stored value: as decoded from its encoding with the type it was written with (nil when it does
    /// not decode, or holds a class instance, whose every read decodes new instances), that type, and the
    /// encoding itself for reads with another type.
    private struct Entry: Sendable {
        let value: (any Sendable)?
        let type: ObjectIdentifier
        let encoded: Data
    }

    /// Creates an empty store.
    public init() {
        self.instrument = nil
    }

    /// Creates an empty store that reports every operation to `instrument` (ForgeStorageTesting's faults and
    /// operation log).
    package init(instrument: (any StoreInstrument)?) {
        self.instrument = instrument
    }

    /// The number of keys that hold a value.
    public var count: Int {
        entries.withLock { $0.count }
    }

    /// The keys that hold a value, sorted.
    public var keys: [String] {
        entries.withLock { Array($0.keys) }.sorted()
    }
}

extension InMemoryKVStore {
    /// Reports `operation` on `key` (nil for every key) to the instrument, and returns the fault it asks for.
    ///
    /// A write or remove fails with it as ``DiskKVStore`` fails (`InjectedFault.fail`): the `FileSystemError`
    /// of the disk call, through the store family's one mapping (`KVStoreError(_:writing:)`,
    /// `KVStoreError(_:removing:)`). A plain store has no instrument and never fails.
    private func report(_ operation: StoreOperation, _ key: String?) -> InjectedFault? {
        instrument?.begin(operation, target: key)
    }

    /// Whether `value` is, or holds anywhere inside (an optional, a collection, a property), a class instance.
    private static func holdsClassInstance(_ value: Any) -> Bool {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .class { return true }
        return mirror.children.contains { holdsClassInstance($0.value) }
    }
}

extension InMemoryKVStore: KVStoring {
    /// Returns the value stored for `key`, or nil.
    public func get<T: Codable & Sendable>(_ key: KVKey<T>) -> T? {
        if report(.read, key.key) != nil { return nil }
        guard let entry = entries.withLock({ $0[key.key] }) else { return nil }
        // The decoded value stands for its encoding only for the type it was written with: a subclass
        // instance would also cast to its superclass, which disk decodes as the superclass.
        // (`stored` is unwrapped first: `nil as? T` succeeds, as `.some(nil)`, when `T` is an optional.)
        if entry.type == ObjectIdentifier(T.self), let stored = entry.value, let value = stored as? T { return value }
        return try? JSONCodec.decode(T.self, from: entry.encoded)
    }

    /// Stores `value` for `key`.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` when the value cannot be encoded.
    public func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) throws {
        let encoded: Data
        do {
            encoded = try JSONCodec.encode(value)
        } catch {
            throw KVStoreError.encodingFailed(key: key.key, underlying: String(describing: error))
        }
        try report(.write, key.key)?.fail(.open, key.key) { KVStoreError($0, writing: key.key) }
        // A value that holds a class instance is not kept decoded: every read of it decodes new instances, as a
        // read from disk does, so changing what one read returned never changes what the next one returns.
        let decoded = (try? JSONCodec.decode(T.self, from: encoded)).flatMap { Self.holdsClassInstance($0) ? nil : $0 }
        let entry = Entry(value: decoded, type: ObjectIdentifier(T.self), encoded: encoded)
        entries.withLock { $0[key.key] = entry }
    }

    /// Removes the value stored for `key`.
    public func remove<T: Codable & Sendable>(_ key: KVKey<T>) throws {
        try report(.delete, key.key)?.fail(.remove, key.key) { KVStoreError($0, removing: key.key) }
        _ = entries.withLock { $0.removeValue(forKey: key.key) }
    }

    /// Returns true when a value is stored for `key`.
    public func contains<T: Codable & Sendable>(_ key: KVKey<T>) -> Bool {
        if report(.exists, key.key)?.hidesItems == true { return false }
        return entries.withLock { $0[key.key] != nil }
    }

    /// Removes every value.
    public func removeAll() throws {
        try report(.deleteAll, nil)?.fail(.remove, "") { KVStoreError($0, removing: nil) }
        entries.withLock { $0.removeAll() }
    }
}
