internal import ForgeCore
internal import Foundation

/// A dictionary-backed ``CryptStoring`` for tests and previews: fast, thread-safe, no entitlements, no disk.
///
/// It behaves like the Keychain and the vault: values are encoded as they would be stored (so a value that
/// fails to encode fails here too), and a read with another type than was written decodes the stored bytes
/// as that type or throws ``CryptStoreError/decodingFailed(key:underlying:)``, as they do. Secrets live as long as the instance and are not
/// encrypted: never use it to hold real secrets.
///
/// ```swift
/// let keychain = InMemoryCrypt()
/// try keychain.set("token123", for: AuthKeys.accessToken)
/// #expect(try keychain.get(AuthKeys.accessToken) == "token123")
/// ```
public final class InMemoryCrypt: Sendable {
    /// The items by key.
    ///
    /// Keys compare as Swift strings do, so canonically equivalent spellings (`é` and
    /// `e` + `◌́`) are one key, as in the Keychain and the vault, which store keys in their NFC spelling.
    private let items = LockedState<[String: Data]>([:])
    /// The faults and operation log a test asked for; nil (one check per call) for a plain store.
    let instrument: (any StoreInstrument)?

    /// Creates an empty store.
    public init() {
        self.instrument = nil
    }

    /// Creates an empty store that reports every operation to `instrument` (ForgeStorageTesting's faults and
    /// operation log).
    package init(instrument: (any StoreInstrument)?) {
        self.instrument = instrument
    }

    /// The keys that hold a secret, sorted.
    public var keys: [String] {
        items.withLock { Array($0.keys) }.sorted()
    }
}

extension InMemoryCrypt: CryptStoring {
    /// Returns the secret stored for `key`, or nil.
    ///
    /// - Throws: ``CryptStoreError/decodingFailed(key:underlying:)`` when the secret is not a `Value`.
    public func get<Value: Codable & Sendable>(_ key: CryptKey<Value>) throws -> Value? {
        let fault = instrument?.begin(.read, target: key.key)
        if let fault, !fault.isCorruptData { throw CryptStoreError.injected(fault, .read, key: key.key) }
        guard let data = items.withLock({ $0[key.key] }) else { return nil }
        if fault != nil { throw CryptStoreError.tamperedItem(key: key.key) }
        return try SecretCoding.decode(Value.self, from: data, key: key.key)
    }

    /// Stores `value` for `key`.
    ///
    /// - Throws: ``CryptStoreError/encodingFailed(key:underlying:)`` when the value cannot be encoded.
    public func set<Value: Codable & Sendable>(_ value: Value, for key: CryptKey<Value>) throws {
        let data = try SecretCoding.encode(value, key: key.key)
        if let instrument, let fault = instrument.begin(.write, target: key.key) {
            throw CryptStoreError.injected(fault, .write, key: key.key)
        }
        items.withLock { $0[key.key] = data }
    }

    /// Removes the secret stored for `key`.
    public func delete<Value: Codable & Sendable>(_ key: CryptKey<Value>) throws {
        if let instrument, let fault = instrument.begin(.delete, target: key.key) {
            throw CryptStoreError.injected(fault, .delete, key: key.key)
        }
        _ = items.withLock { $0.removeValue(forKey: key.key) }
    }

    /// Returns true when a secret is stored for `key`.
    public func contains<Value: Codable & Sendable>(_ key: CryptKey<Value>) throws -> Bool {
        if let instrument, let fault = instrument.begin(.exists, target: key.key) {
            if let error = CryptStoreError.injected(existence: fault, key: key.key) { throw error }
            if fault.hidesItems { return false }
        }
        return items.withLock { $0[key.key] != nil }
    }

    /// Removes every secret.
    public func deleteAll() throws {
        if let instrument, let fault = instrument.begin(.deleteAll, target: nil) {
            throw CryptStoreError.injected(fault, .deleteAll, key: nil)
        }
        items.withLock { $0.removeAll() }
    }
}
