internal import ForgeCore
internal import Foundation

/// The typed API of every store built on a ``CryptBackend``, written once: a store that declares both protocols
/// implements only the backend's requirements.
extension CryptStoring where Self: CryptBackend {
    /// Returns the secret stored for `key`, decoded as a `Value`, or nil when none is stored.
    ///
    /// - Throws: ``CryptStoreError/decodingFailed(key:underlying:)`` when the stored bytes are not a `Value`, or
    ///   what the store throws for the read.
    public func get<Value: Codable & Sendable>(_ key: CryptKey<Value>) throws -> Value? {
        guard let secret = try storedSecret(named: key.key) else { return nil }
        return try SecretCoding.decode(Value.self, from: secret, key: key.key)
    }

    /// Encodes `value` and stores it for `key`.
    ///
    /// - Throws: ``CryptStoreError/encodingFailed(key:underlying:)`` when the value cannot be encoded (nothing is
    ///   written), or what the store throws for the write; the previous secret is kept either way.
    public func set<Value: Codable & Sendable>(_ value: Value, for key: CryptKey<Value>) throws {
        try store(SecretCoding.encode(value, key: key.key), named: key.key)
    }

    /// Removes the secret stored for `key`; succeeds when there is none.
    ///
    /// - Throws: What the store throws for the removal.
    public func delete<Value: Codable & Sendable>(_ key: CryptKey<Value>) throws {
        try removeSecret(named: key.key)
    }

    /// Returns true when a secret is stored for `key`; the secret is not read as a `Value`.
    ///
    /// - Throws: What the store throws when it cannot tell.
    public func contains<Value: Codable & Sendable>(_ key: CryptKey<Value>) throws -> Bool {
        try hasSecret(named: key.key)
    }

    /// Removes every secret of this store, and none of another's.
    ///
    /// - Throws: What the store throws for the removal.
    public func deleteAll() throws {
        try removeAll()
    }

    /// The keys that hold a secret, sorted, each once in its canonical (NFC) form.
    ///
    /// - Throws: ``CryptStoreError/listFailed(underlying:)``, or another error the store reports.
    public func keys() throws -> [String] {
        KeyListing.sorted(try storedNames())
    }
}
