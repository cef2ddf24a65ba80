/// A store of secrets (tokens, passwords, keys) that keeps them safe at rest.
///
/// Depend on the protocol, not on a concrete store, so tests can inject ``InMemoryCrypt``:
///
/// ```swift
/// final class AuthService {
///     private let secrets: any CryptStoring
///     init(secrets: any CryptStoring) { self.secrets = secrets }
///
///     func login(token: String) throws { try secrets.set(token, for: AuthKeys.accessToken) }
///     var token: String? { get throws { try secrets.get(AuthKeys.accessToken) } }
/// }
/// ```
///
/// Every implementation behaves the same. `Data` is stored as its bytes and `String` as its UTF-8 bytes;
/// other values as JSON. A secret is read with another type than it was written with when its stored bytes
/// decode as that type (an `Int` read as a `Double`); when they do not, the read throws
/// ``CryptStoreError/decodingFailed(key:underlying:)``. A read never turns a failure into nil: a locked
/// device, a wrong master key, a tampered item or bytes that do not decode throw a ``CryptStoreError``, and
/// nothing stored is changed by a failed call.
///
/// Every call is safe from any thread: calls made at once never lose one another's writes, and a read while a
/// `set` runs returns the previous secret or the new one, whole. Handles on the same storage (a vault opened
/// again on its folder, a `KeychainCrypt` on the same service) see each other's changes at once: no handle caches
/// secrets. Stores beside each other on one backing (two namespaces of one folder, two Keychain services) share
/// nothing: neither reads, lists nor deletes the other's secrets, and `deleteAll()` removes every secret of this
/// store and none of the other's.
///
/// ## Writing a store
/// Build it on ``CryptBackend``: declare both protocols and implement the backend's requirements (read, write and
/// remove a named secret's bytes, tell whether one is stored, list the names, remove all), and every requirement here
/// comes with them, written once for every store: the coding of values, the typed errors of a value that does not
/// encode or decode, `contains`, and sorted, canonical `keys()`. A store that keeps secrets safe at rest does it
/// below the contract, as the vault seals its items. The conformance suite (`CryptStoringConformance` in
/// ForgeStorageTesting) holds a store to all of it.
///
/// `keys()` came after `get`, `set`, `delete`, `contains` and `deleteAll()`: a store written against this protocol alone, before it, still
/// compiles, with a `keys()` that throws ``CryptStoreError/listFailed(underlying:)``.
public protocol CryptStoring: Sendable {
    /// Returns the secret stored for `key`, or nil when none is stored.
    ///
    /// - Throws: ``CryptStoreError``, for example ``CryptStoreError/tamperedItem(key:)``,
    ///   ``CryptStoreError/notAccessibleNow(key:)`` or ``CryptStoreError/decodingFailed(key:underlying:)``.
    func get<Value: Codable & Sendable>(_ key: CryptKey<Value>) throws -> Value?

    /// Stores `value` for `key`, replacing any previous secret.
    ///
    /// - Throws: ``CryptStoreError``; the previous secret is kept when the call fails.
    func set<Value: Codable & Sendable>(_ value: Value, for key: CryptKey<Value>) throws

    /// Removes the secret stored for `key`. Removing a key that holds nothing succeeds.
    ///
    /// - Throws: ``CryptStoreError`` when the secret cannot be removed.
    func delete<Value: Codable & Sendable>(_ key: CryptKey<Value>) throws

    /// Returns true when a secret is stored for `key`.
    ///
    /// - Throws: ``CryptStoreError`` when the store cannot tell, for example while the device is locked.
    func contains<Value: Codable & Sendable>(_ key: CryptKey<Value>) throws -> Bool

    /// Removes every secret this store holds, and nothing it does not.
    ///
    /// - Throws: ``CryptStoreError`` when the secrets cannot be removed.
    func deleteAll() throws

    /// The keys that hold a secret in this store, sorted, each in its canonical (NFC) form.
    ///
    /// Canonically equivalent spellings of a key are one key, listed once in NFC, as the store compares them.
    ///
    /// - Returns: The keys, sorted.
    /// - Throws: ``CryptStoreError/listFailed(underlying:)`` when the keys cannot be listed, or another
    ///   ``CryptStoreError`` the store reports, such as ``CryptStoreError/notAccessibleNow(key:)``.
    func keys() throws -> [String]
}
