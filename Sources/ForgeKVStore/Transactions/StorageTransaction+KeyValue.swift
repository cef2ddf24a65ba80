public import ForgeCore

/// The writes and removes of key-value stores in a transaction, written once for every ``TransactionalKVStore``: the
/// value is encoded and the key's names are chosen as `set` and `remove` of ``KVStoring`` choose them.
extension StorageTransaction {
    /// Stores `value` for `key` in `store` when the transaction is applied.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` now, when `value` cannot be encoded, or
    ///   `StorageTransactionError`; the transaction then applies nothing unless the error is caught in its body.
    public func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T, in store: some TransactionalKVStore) throws {
        let stored = try KVStoredValue(encoding: value, key: key.key)
        try stage(.storeValue(json: stored.json, name: key.key), in: store)
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
