public import ForgeCore

/// The writes and removes of secret stores in a transaction, written once for every ``TransactionalCrypt``: values
/// are coded as `set` of ``CryptStoring`` codes them, and each store seals the bytes as it seals every secret.
extension StorageTransaction {
    /// Stores `value` for `key` in `store` when the transaction is applied.
    ///
    /// - Throws: ``CryptStoreError/encodingFailed(key:underlying:)`` now, when `value` cannot be encoded, or
    ///   `StorageTransactionError`.
    public func set<Value: Codable & Sendable>(
        _ value: Value,
        for key: CryptKey<Value>,
        in store: some TransactionalCrypt
    ) throws {
        try stage(.storeSecret(SecretCoding.encode(value, key: key.key), name: key.key), in: store)
    }

    /// Removes the secret of `key` from `store` when the transaction is applied; a key with no secret is no failure.
    ///
    /// - Throws: `StorageTransactionError`.
    public func delete<Value: Codable & Sendable>(_ key: CryptKey<Value>, in store: some TransactionalCrypt) throws {
        try stage(.removeSecret(name: key.key), in: store)
    }
}
