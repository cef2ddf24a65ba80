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
    /// Where `get` reports the values it read as nil because they did not decode.
    private let decodingFailures = DecodingFailureReports()

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

    /// Sends each value that ``get(_:)`` reads as nil because it does not decode to `handler` (nil: to nobody,
    /// as before the first call), as ``DiskKVStore/reportDecodingFailures(to:)`` does.
    public func reportDecodingFailures(to handler: (@Sendable (KVDecodingFailure) -> Void)?) {
        decodingFailures.send(to: handler)
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
    /// Returns the value stored for `key` or migrated from an older one, or nil.
    public func get<T: Codable & Sendable>(_ key: KVKey<T>) -> T? {
        decodingFailures.get(key) { try value(for: key) }
    }

    /// Returns the value stored for `key` or migrated from an older one; nil when nothing is stored.
    ///
    /// - Throws: ``KVStoreError/decodingFailed(key:underlying:)`` as ``DiskKVStore`` throws it, or
    ///   ``KVStoreError/readFailed(key:underlying:)`` when a test's fault fails the read.
    public func value<T: Codable & Sendable>(for key: KVKey<T>) throws -> T? {
        try key.resolvingMigrations(in: self) { plain in
            let fault = report(.read, plain.key)
            if let fault, !fault.isCorruptData {
                try fault.fail(.open, plain.key) { KVStoreError($0, reading: plain.key) }
            }
            guard let entry = entries.withLock({ $0[plain.key] }) else { return nil }
            if fault != nil {
                throw KVStoreError.decodingFailed(key: plain.key, underlying: "the stored data is damaged")
            }
            // The decoded value stands for its encoding only for the type it was written with: a subclass
            // instance would also cast to its superclass, which disk decodes as the superclass.
            // (`stored` is unwrapped first: `nil as? T` succeeds, as `.some(nil)`, when `T` is an optional.)
            if entry.type == ObjectIdentifier(T.self), let stored = entry.value, let value = stored as? T {
                return value
            }
            do {
                return try JSONCodec.decode(T.self, from: entry.encoded)
            } catch {
                throw KVStoreError.decodingFailed(key: plain.key, underlying: String(describing: error))
            }
        }
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

    /// Removes the value stored for `key`, and those under the older names its migrations read.
    public func remove<T: Codable & Sendable>(_ key: KVKey<T>) throws {
        try report(.delete, key.key)?.fail(.remove, key.key) { KVStoreError($0, removing: key.key) }
        entries.withLock { entries in
            for name in key.storedNames { entries.removeValue(forKey: name) }
        }
    }

    /// Returns true when a value is stored for `key`, or under an older name its migrations read.
    public func contains<T: Codable & Sendable>(_ key: KVKey<T>) -> Bool {
        if report(.exists, key.key)?.hidesItems == true { return false }
        return entries.withLock { entries in key.storedNames.contains { entries[$0] != nil } }
    }

    /// Removes every value.
    public func removeAll() throws {
        try report(.deleteAll, nil)?.fail(.remove, "") { KVStoreError($0, removing: nil) }
        entries.withLock { $0.removeAll() }
    }

    /// The keys that hold a value, sorted, each in its canonical (NFC) form.
    ///
    /// - Throws: ``KVStoreError/listFailed(underlying:)`` when a test's fault fails the listing.
    public func keys() throws -> [String] {
        try report(.list, nil)?.fail(.list, "") { KVStoreError(listing: $0) }
        return entries.withLock { $0.keys.map(FileNameEncoding.canonicalForm(of:)) }.sorted()
    }
}
