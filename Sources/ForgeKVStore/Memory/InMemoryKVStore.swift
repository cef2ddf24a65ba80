public import Foundation
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
    let entries = LockedState<[String: KVStoredValue]>([:])
    /// Where a test's faults enter; lets every call through for a plain store.
    let faults: KVFaultPoint
    /// The observers of ``observeChanges(_:)``, by number.
    let observers = LockedState(KVChangeObservers())
    /// How the store keeps values with a lifetime.
    public let expiry: KVExpiry?

    /// Creates an empty store, whose values with a lifetime expire by `expiry`'s clock, as a disk or database store's
    /// do.
    ///
    /// - Parameter expiry: The clock and reclaiming of values with a lifetime. Defaults to the system clock's; a test
    ///   gives it ForgeStorageTesting's `ManualExpiryClock`.
    public init(expiry: KVExpiry = KVExpiry()) {
        self.faults = KVFaultPoint(nil)
        self.expiry = expiry
    }

    /// Creates an empty store that reports every operation to `instrument` (ForgeStorageTesting's faults and
    /// operation log).
    package init(instrument: (any StoreInstrument)?, expiry: KVExpiry = KVExpiry()) {
        self.faults = KVFaultPoint(instrument)
        self.expiry = expiry
    }

    /// The number of values the store holds, expired ones not yet reclaimed included.
    public var count: Int {
        entries.withLock { $0.count }
    }
}

extension InMemoryKVStore: ExpiringKVStoring, KVBackend {
    /// The value stored under `name`, or nil.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)`` when a test's fault fails the read; a fault that
    ///   damages data makes the value one that decodes as no type, as a damaged file does.
    public func storedValue(named name: String) throws -> KVStoredValue? {
        // A plain store (no test's faults) reads at once: building the seam's call for every read took the in-memory
        // get from 2.39x to 4.76x a locked dictionary's (kv.memory.get, Benchmarks/Results).
        guard faults.instrument != nil else { return entries.withLock { $0[name] } }
        return try faults.intercept(.read(name)) { entries.withLock { $0[name] } }
    }

    /// Stores `value` under `name`.
    ///
    /// - Throws: ``KVStoreError/writeFailed(key:underlying:)`` when a test's fault fails the write.
    public func store(_ value: KVStoredValue, named name: String) throws {
        _ = try faults.begin(.write, name)
        // A value that holds a class instance is kept as JSON alone: every read of it decodes new instances, as a
        // read from disk does, so changing what one read returned never changes what the next one returns.
        let stored = value.decodedFromJSON
        entries.withLock { $0[name] = stored }
        tell(name)
    }

    /// Stores `value` under `name` unless a value not expired at `date` is there, under the store's lock; returns
    /// whether it did.
    ///
    /// - Throws: ``KVStoreError/writeFailed(key:underlying:)`` when a test's fault fails the write.
    public func storeIfAbsent(_ value: KVStoredValue, named name: String, liveAt date: Date) throws -> Bool {
        _ = try faults.begin(.write, name)
        let stored = value.decodedFromJSON
        let inserted = entries.withLock { entries in
            if let existing = entries[name], !existing.isExpired(at: date) { return false }
            entries[name] = stored
            return true
        }
        if inserted { tell(name) }
        return inserted
    }

    /// Removes the value stored under `name`.
    ///
    /// - Throws: ``KVStoreError/removeFailed(key:underlying:)`` when a test's fault fails the remove.
    public func removeValue(named name: String) throws {
        _ = try faults.begin(.delete, name)
        _ = entries.withLock { $0.removeValue(forKey: name) }
        tell(name)
    }

    /// Whether a value is stored under `name`; false when a test's fault hides it.
    public func hasValue(named name: String) -> Bool {
        faults.check(.exists(name)) { entries.withLock { $0[name] != nil } }
    }

    /// The names that hold a value.
    ///
    /// - Throws: ``KVStoreError/listFailed(underlying:)`` when a test's fault fails the listing.
    public func storedNames() throws -> [String] {
        try faults.intercept(.list(nil)) { entries.withLock { Array($0.keys) } }
    }

    /// The names that hold a value that has not expired at `date`.
    ///
    /// - Throws: ``KVStoreError/listFailed(underlying:)`` when a test's fault fails the listing.
    public func storedNames(liveAt date: Date) throws -> [String] {
        _ = try faults.begin(.list, nil)
        return entries.withLock { entries in entries.compactMap { $0.value.isExpired(at: date) ? nil : $0.key } }
    }

    /// Whether a value not expired at `date` is stored under `name`; false when a test's fault hides it.
    public func hasValue(named name: String, liveAt date: Date) -> Bool {
        faults.check(.exists(name)) { entries.withLock { $0[name].map { !$0.isExpired(at: date) } ?? false } }
    }

    /// Removes up to `limit` values expired at `date` (none when `limit` is 0 or less), and tells observers of each.
    public func removeExpiredValues(at date: Date, limit: Int) throws -> [String] {
        let removed = entries.withLock { entries in
            let expired = entries.lazy.filter { $0.value.isExpired(at: date) }.prefix(max(0, limit)).map(\.key)
            let names = Array(expired)
            for name in names { entries[name] = nil }
            return names
        }
        for name in removed { tell(name) }
        return removed
    }

    /// Removes every value.
    ///
    /// - Throws: ``KVStoreError/removeAllFailed(underlying:)`` when a test's fault fails it.
    public func removeAll() throws {
        _ = try faults.begin(.deleteAll, nil)
        entries.withLock { $0.removeAll() }
        tell(nil)
    }
}
