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
    /// The values by name, each decoded from its JSON as the type that wrote it (see
    /// `KVStoredValue.decodedFromJSON`).
    private let entries = LockedState<[String: KVStoredValue]>([:])
    /// The faults and operation log a test asked for; nil (one check per call) for a plain store.
    let instrument: (any StoreInstrument)?

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
}

extension InMemoryKVStore: KVStoring, KVBackend {
    /// The value stored under `name`, or nil.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)`` when a test's fault fails the read; a fault that
    ///   damages data makes the value one that decodes as no type, as a damaged file does.
    public func storedValue(named name: String) throws -> KVStoredValue? {
        let fault = report(.read, name)
        if let fault, !fault.isCorruptData {
            try fault.fail(.open, name) { KVStoreError($0, reading: name) }
        }
        guard let stored = entries.withLock({ $0[name] }) else { return nil }
        return fault == nil ? stored : KVStoredValue(json: Data("the stored data is damaged".utf8))
    }

    /// Stores `value` under `name`.
    ///
    /// - Throws: ``KVStoreError/writeFailed(key:underlying:)`` when a test's fault fails the write.
    public func store(_ value: KVStoredValue, named name: String) throws {
        try report(.write, name)?.fail(.open, name) { KVStoreError($0, writing: name) }
        // A value that holds a class instance is kept as JSON alone: every read of it decodes new instances, as a
        // read from disk does, so changing what one read returned never changes what the next one returns.
        let stored = value.decodedFromJSON
        entries.withLock { $0[name] = stored }
    }

    /// Removes the value stored under `name`.
    ///
    /// - Throws: ``KVStoreError/removeFailed(key:underlying:)`` when a test's fault fails the remove.
    public func removeValue(named name: String) throws {
        try report(.delete, name)?.fail(.remove, name) { KVStoreError($0, removing: name) }
        _ = entries.withLock { $0.removeValue(forKey: name) }
    }

    /// Whether a value is stored under `name`; false when a test's fault hides it.
    public func hasValue(named name: String) -> Bool {
        if report(.exists, name)?.hidesItems == true { return false }
        return entries.withLock { $0[name] != nil }
    }

    /// The names that hold a value.
    ///
    /// - Throws: ``KVStoreError/listFailed(underlying:)`` when a test's fault fails the listing.
    public func storedNames() throws -> [String] {
        try report(.list, nil)?.fail(.list, "") { KVStoreError(listing: $0) }
        return entries.withLock { Array($0.keys) }
    }

    /// Removes every value.
    ///
    /// - Throws: ``KVStoreError/removeAllFailed(underlying:)`` when a test's fault fails it.
    public func removeAll() throws {
        try report(.deleteAll, nil)?.fail(.remove, "") { KVStoreError($0, removing: nil) }
        entries.withLock { $0.removeAll() }
    }
}
