public import ForgeCore
public import Foundation

/// The writes and removes of key-value stores in a transaction, written once for every ``TransactionalKVStore``: the
/// value is encoded and the key's names are chosen as `set` and `remove` of ``KVStoring`` choose them.
extension StorageTransaction {
    /// Stores `value` for `key` in `store` when the transaction is applied.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` now, when `value` cannot be encoded, or
    ///   `StorageTransactionError`; the transaction then applies nothing unless the error is caught in its body.
    public func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T, in store: some TransactionalKVStore) throws {
        let json = try KVStoredValue.json(encoding: value, key: key.key)
        try stage(.storeValue(json: json, name: key.key, expiresAtMilliseconds: nil), in: store)
    }

    /// Stores `value` for `key` in `store` when the transaction is applied, to expire `lifetime` after now (the
    /// moment this is staged, not applied), by the store's clock, as ``ExpiringKVStoring/set(_:value:expiresAfter:)``
    /// stores it.
    ///
    /// - Throws: As ``set(_:value:in:)-(KVKey<T>,_,_)`` does, and ``KVStoreError/writeFailed(key:underlying:)`` for a
    ///   store that keeps no lifetimes (its `expiry` is nil).
    public func set<T: Codable & Sendable>(
        _ key: KVKey<T>,
        value: T,
        expiresAfter lifetime: Duration,
        in store: some TransactionalKVStore & AsyncExpiringKVStoring
    ) throws {
        guard let expiry = store.expiry else { throw KVExpiry.lifetimeNotKept(key.key) }
        try set(key, value: value, expiresAt: expiry.expirationDate(after: lifetime), in: store)
    }

    /// Stores `value` for `key` in `store` when the transaction is applied, to expire at `date` (rounded up to the
    /// millisecond, as every store keeps it); a date already past stores a value that reads as missing.
    ///
    /// - Throws: As ``set(_:value:in:)-(KVKey<T>,_,_)`` does, and ``KVStoreError/writeFailed(key:underlying:)`` for a
    ///   store that keeps no lifetimes (its `expiry` is nil).
    public func set<T: Codable & Sendable>(
        _ key: KVKey<T>,
        value: T,
        expiresAt date: Date,
        in store: some TransactionalKVStore & AsyncExpiringKVStoring
    ) throws {
        try KVLifetime.until(date).refuseWithoutExpiry(store.expiry, key: key.key)
        let stored = try KVStoredValue(encoding: value, key: key.key)
            .expiring(at: KVLifetime.checked(date, for: key.key))
        try stage(
            .storeValue(json: stored.json, name: key.key, expiresAtMilliseconds: stored.expiresAtMilliseconds),
            in: store
        )
        // As the store's own write with a lifetime: no older value is read in its place once it expires.
        for name in key.storedNames.dropFirst().reversed() {
            try stage(.removeValue(name: name), in: store)
        }
        if let expiresAt = stored.expiresAt { store.expiry?.noteStored(expiringAt: expiresAt) }
    }

    /// Removes the value of `key` from `store`, and those under the older names its migrations read, when the
    /// transaction is applied.
    ///
    /// - Throws: `StorageTransactionError`.
    public func remove<T: Codable & Sendable>(_ key: KVKey<T>, in store: some TransactionalKVStore) throws {
        for name in key.storedNames.reversed() {
            try stage(.removeValue(name: name), in: store)
        }
    }

    /// Stores `value` for `key` in `store` when the transaction is applied; a value equal to the default is stored
    /// too.
    ///
    /// - Throws: As ``set(_:value:in:)-(KVKey<T>,_,_)`` does.
    public func set<T: Codable & Sendable>(
        _ key: KVKeyWithDefault<T>,
        value: T,
        in store: some TransactionalKVStore
    ) throws {
        try set(key.withoutDefault, value: value, in: store)
    }

    /// Removes the value of `key` from `store`, so that reads return its default again, when the transaction is
    /// applied.
    ///
    /// - Throws: `StorageTransactionError`.
    public func remove<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>, in store: some TransactionalKVStore) throws {
        try remove(key.withoutDefault, in: store)
    }
}
