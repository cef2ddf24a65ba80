/// The asynchronous form of ``CryptStoring``: the same operations and rules, each `async throws`, so that a store
/// behind a network (secrets sealed in the process and kept in a shared database) can answer without blocking a
/// thread.
///
/// The synchronous stores of this module conform as they are, so a service written against this protocol runs on
/// ``InMemoryCrypt`` in tests, on the Keychain or the vault on one machine, and on a network store across many. A
/// store of your own is written on ``AsyncCryptBackend`` (or ``CryptBackend``), and gets every requirement here from
/// the library.
public protocol AsyncCryptStoring: Sendable {
    /// Returns the secret stored for `key`, or nil when none is stored. See ``CryptStoring/get(_:)``.
    ///
    /// - Throws: ``CryptStoreError``; a read never turns a failure into nil.
    nonisolated(nonsending) func get<Value: Codable & Sendable>(_ key: CryptKey<Value>) async throws -> Value?

    /// Stores `value` for `key`, replacing any previous secret. See ``CryptStoring/set(_:for:)``.
    ///
    /// - Throws: ``CryptStoreError``; the previous secret is kept.
    nonisolated(nonsending) func set<Value: Codable & Sendable>(_ value: Value, for key: CryptKey<Value>) async throws

    /// Deletes the secret stored for `key`; deleting a key that holds nothing succeeds.
    ///
    /// - Throws: ``CryptStoreError``.
    nonisolated(nonsending) func delete<Value: Codable & Sendable>(_ key: CryptKey<Value>) async throws

    /// Returns true when a secret is stored for `key`.
    ///
    /// - Throws: ``CryptStoreError`` when the store cannot tell.
    nonisolated(nonsending) func contains<Value: Codable & Sendable>(_ key: CryptKey<Value>) async throws -> Bool

    /// Deletes every secret of this store, and none of another's.
    ///
    /// - Throws: ``CryptStoreError``.
    nonisolated(nonsending) func deleteAll() async throws

    /// The keys that hold a secret in this store, sorted, each in its canonical (NFC) form.
    ///
    /// - Throws: ``CryptStoreError/listFailed(underlying:)``.
    nonisolated(nonsending) func keys() async throws -> [String]
}

extension InMemoryCrypt: AsyncCryptStoring {}
extension EncryptedFileCrypt: AsyncCryptStoring {}
extension KeychainCrypt: AsyncCryptStoring {}
