/// A store of typed values by key: settings, flags and small serialized data.
///
/// Depend on the protocol, not on a concrete store, so tests can inject ``InMemoryKVStore``:
///
/// ```swift
/// final class SettingsService {
///     private let store: any KVStoring
///     init(store: any KVStoring) { self.store = store }
///
///     var taskCount: Int { store.get(TaskKeys.taskCount) ?? 0 }
///     func setTaskCount(_ count: Int) throws { try store.set(TaskKeys.taskCount, value: count) }
/// }
/// ```
///
/// Every implementation behaves the same: a value that cannot be encoded is refused with
/// ``KVStoreError/encodingFailed(key:underlying:)`` and leaves the stored value as it was. A value is read
/// with another type than it was written with when its JSON (as ``DiskKVStore`` stores it) decodes as that
/// type: an `Int` reads as an `Int?`, a `Double` or a `Date` (seconds since 2001), a base64 `String` as
/// `Data`; when it does not (a `String` read as an `Int`, `true` as an `Int`), and when it is corrupt, it
/// reads as nil from ``get(_:)`` and throws ``KVStoreError/decodingFailed(key:underlying:)`` from
/// ``value(for:)``. A key's ``KVKey/migrations`` read what older versions of an app stored (``KVMigration``).
/// A read returns the value as decoded from what is stored, as a read from disk does: never the instance
/// ``set(_:value:)`` was given, nor one an earlier read returned, so a class instance changed after it was written or
/// read changes no other read.
///
/// A key name holds one value, whatever type writes or reads it. Every call is safe from any thread: calls made
/// at once never lose one another's writes, and a read while a `set` runs returns the previous value or the new
/// one, whole. Handles on the same storage (another ``DiskKVStore`` on the same folder, another
/// ``UserDefaultsKVStore`` on the same suite) see each other's changes at once: no handle caches values. Stores
/// on one backing under different names (two namespaces of one folder, two suites) share nothing: neither reads,
/// lists nor removes the other's values.
///
/// ## Writing a store
/// Build it on ``KVBackend``: declare both protocols and implement the backend's requirements that have no default (read,
/// write and remove a named value held as JSON, list the names, remove all), and every requirement here comes with them,
/// written once for every store: the codec, migrations, `value(for:)`, `contains` and `remove` over a key's older
/// names, and sorted ``keys()``. The conformance suite (`KVStoringConformance` in ForgeStorageTesting) holds a store
/// to all of it.
///
/// A store written against `get`, `set`, `remove`, `contains` and `removeAll()` alone still compiles: its ``value(for:)`` reads
/// through its `get` and `contains` (migrations then work through ``value(for:)`` only), and its ``keys()`` throws
/// ``KVStoreError/listFailed(underlying:)``.
public protocol KVStoring: Sendable {
    /// Returns the value stored for `key`, or nil when nothing is stored or it does not decode as `T`, even
    /// through the key's migrations. Use ``value(for:)`` to tell the two apart.
    func get<T: Codable & Sendable>(_ key: KVKey<T>) -> T?

    /// Returns the value stored for `key`, read as a `T` or migrated from what an older version stored; nil only
    /// when nothing is stored, under the key or under an older name of its migrations.
    ///
    /// A stored nil optional reads as `.some(nil)`. A failed read changes nothing.
    ///
    /// - Throws: ``KVStoreError/decodingFailed(key:underlying:)`` when a value is stored that does not decode as
    ///   `T` and no migration reads it, or ``KVStoreError/readFailed(key:underlying:)`` when the store cannot
    ///   read it.
    func value<T: Codable & Sendable>(for key: KVKey<T>) throws -> T?

    /// Stores `value` for `key`, replacing any previous value.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` when the value cannot be encoded, or
    ///   ``KVStoreError/writeFailed(key:underlying:)`` when it cannot be written. Either way the
    ///   previous value is kept.
    func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) throws

    /// Removes the value stored for `key`, and the values stored under the older names its migrations read.
    ///
    /// The older names are removed first and the key last, so a remove cut short never brings an older value
    /// back through a migration. Removing a key that holds nothing succeeds.
    ///
    /// - Throws: ``KVStoreError/removeFailed(key:underlying:)`` when the value cannot be removed.
    func remove<T: Codable & Sendable>(_ key: KVKey<T>) throws

    /// Returns true when a value is stored for `key`, or under an older name its migrations read.
    func contains<T: Codable & Sendable>(_ key: KVKey<T>) -> Bool

    /// Removes every value this store holds, and nothing it does not.
    ///
    /// - Throws: ``KVStoreError/removeAllFailed(underlying:)`` when the values cannot be removed.
    func removeAll() throws

    /// The keys that hold a value in this store, sorted, each in its canonical (NFC) form.
    ///
    /// - Throws: ``KVStoreError/listFailed(underlying:)`` when the keys cannot be listed.
    func keys() throws -> [String]
}
