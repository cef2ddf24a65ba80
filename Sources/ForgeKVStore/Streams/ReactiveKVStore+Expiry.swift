public import Foundation

/// Lifetimes through the wrapper: its writes with a lifetime go to the wrapped store, when that store keeps lifetimes,
/// and update the key's streams as its other writes do; the streams emit nil when the value expires.
extension ReactiveKVStore: ExpiringKVStoring {
    /// The wrapped store's expiry settings; nil when it keeps no lifetimes.
    public var expiry: KVExpiry? {
        (base as? any ExpiringKVStoring)?.expiry
    }

    /// Stores `value` in the wrapped store with `lifetime`, then updates the streams that read `key`'s name.
    ///
    /// - Throws: What the wrapped store throws, or ``KVStoreError/writeFailed(key:underlying:)`` with
    ///   `FailureReason.other` when it keeps no lifetimes (nothing is written then).
    public func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T, lifetime: KVLifetime) throws {
        try expiringBase(writing: key.key).set(key, value: value, lifetime: lifetime)
        // A write with a lifetime removes the key's older names too.
        changed(key.storedNames)
    }

    /// Stores `value` in the wrapped store with `lifetime` unless its name holds a value that has not expired, then,
    /// when it stored it, updates the streams that read `key`'s name.
    ///
    /// - Throws: What the wrapped store throws, or ``KVStoreError/writeFailed(key:underlying:)`` with
    ///   `FailureReason.other` when it keeps no lifetimes (nothing is written then).
    @discardableResult
    public func setIfAbsent<T: Codable & Sendable>(_ key: KVKey<T>, value: T, lifetime: KVLifetime) throws -> Bool {
        guard try expiringBase(writing: key.key).setIfAbsent(key, value: value, lifetime: lifetime) else {
            return false
        }
        changed(key.storedNames)
        return true
    }

    /// When the wrapped store's value of `key` expires; nil when it has no lifetime, or the store keeps none.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)``.
    public func expirationDate<T: Codable & Sendable>(of key: KVKey<T>) throws -> Date? {
        guard let expiring = base as? any ExpiringKVStoring else { return nil }
        return try expiring.expirationDate(of: key)
    }

    /// Has the wrapped store reclaim up to `limit` expired values; 0 when it keeps no lifetimes, or `limit` is 0 or
    /// less.
    ///
    /// - Throws: What the wrapped store throws.
    public func reclaimExpiredValues(limit: Int) throws -> Int {
        guard let expiring = base as? any ExpiringKVStoring else { return 0 }
        return try expiring.reclaimExpiredValues(limit: limit)
    }

    /// The wrapped store as one that keeps lifetimes, or the error of a write of `key` to one that does not.
    private func expiringBase(writing key: String) throws -> any ExpiringKVStoring {
        guard let expiring = base as? any ExpiringKVStoring else {
            throw KVStoreError.writeFailed(key: key, underlying: .other("the wrapped store keeps no lifetimes"))
        }
        return expiring
    }
}
