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
/// reads as nil.
public protocol KVStoring: Sendable {
    /// Returns the value stored for `key`, or nil when nothing is stored or its JSON does not decode as `T`.
    func get<T: Codable & Sendable>(_ key: KVKey<T>) -> T?

    /// Stores `value` for `key`, replacing any previous value.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` when the value cannot be encoded, or
    ///   ``KVStoreError/writeFailed(key:underlying:)`` when it cannot be written. Either way the
    ///   previous value is kept.
    func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) throws

    /// Removes the value stored for `key`. Removing a key that holds nothing succeeds.
    ///
    /// - Throws: ``KVStoreError/removeFailed(key:underlying:)`` when the value cannot be removed.
    func remove<T: Codable & Sendable>(_ key: KVKey<T>) throws

    /// Returns true when a value is stored for `key`.
    func contains<T: Codable & Sendable>(_ key: KVKey<T>) -> Bool

    /// Removes every value this store holds, and nothing it does not.
    ///
    /// - Throws: ``KVStoreError/removeAllFailed(underlying:)`` when the values cannot be removed.
    func removeAll() throws
}
