public import Foundation

/// The storage a secret store is built on: named secrets, each held as its bytes, and nothing typed.
///
/// Implement these requirements (``hasSecret(named:)`` and ``itemCount()`` have defaults), declare ``CryptStoring``
/// beside this protocol, and the typed API comes with them, written once for every store: keys, the coding of secrets
/// (`Data` as its bytes, `String` as its UTF-8, any other value as JSON),
/// ``CryptStoreError/encodingFailed(key:underlying:)`` and ``CryptStoreError/decodingFailed(key:underlying:)`` naming
/// the key, `contains`, and sorted, canonical ``CryptStoring/keys()``:
///
/// ```swift
/// final class DictionarySecrets: CryptStoring, CryptBackend {
///     private let secrets = Mutex<[String: Data]>([:])
///
///     func storedSecret(named name: String) -> Data? { secrets.withLock { $0[name] } }
///     func store(_ secret: Data, named name: String) { secrets.withLock { $0[name] = secret } }
///     func removeSecret(named name: String) { secrets.withLock { _ = $0.removeValue(forKey: name) } }
///     func storedNames() -> [String] { secrets.withLock { Array($0.keys) } }
///     func removeAll() { secrets.withLock { $0.removeAll() } }
/// }
/// ```
///
/// Keeping the secrets safe at rest is the store's own part, below this contract: the Keychain's items are
/// protected by the system, ``EncryptedFileCrypt`` is a backend that seals each secret before it writes it and opens
/// it when it reads it (with ``SecretSealer``, which any store may use to do the same), and ``InMemoryCrypt`` keeps
/// them in the clear. The typed API above sees only a secret's bytes, so the coding of values and the rules of
/// ``CryptStoring`` are the same for every store, whatever it does to the bytes.
///
/// Names are the strings of ``CryptKey``s, as the caller gave them. Two names that Swift finds equal (the NFC and NFD
/// spellings of one string) are one name: a store that keeps names as bytes keeps them in one normal form, and
/// ``storedNames()`` may list them in any form, as the typed API lists each once in NFC. A requirement that fails
/// throws a ``CryptStoreError`` naming the key and leaves what was stored before as it was, and never turns a failure
/// into "not stored": the typed API passes on what a requirement throws as it is.
public protocol CryptBackend: Sendable {
    /// The bytes of the secret stored under `name`, or nil when none is.
    ///
    /// - Throws: ``CryptStoreError/readFailed(key:underlying:)`` when the storage cannot be read, or another
    ///   ``CryptStoreError`` naming `name`, such as ``CryptStoreError/tamperedItem(key:)`` or
    ///   ``CryptStoreError/notAccessibleNow(key:)``.
    func storedSecret(named name: String) throws -> Data?

    /// Stores `secret` under `name`, replacing what was stored there, atomically: a reader finds the old secret or
    /// the new one, whole.
    ///
    /// - Throws: ``CryptStoreError/writeFailed(key:underlying:)`` or another ``CryptStoreError`` naming `name`; the
    ///   previous secret is kept.
    func store(_ secret: Data, named name: String) throws

    /// Removes the secret stored under `name`; succeeds when there is none.
    ///
    /// - Throws: ``CryptStoreError/removeFailed(key:underlying:)`` or another ``CryptStoreError`` naming `name`.
    func removeSecret(named name: String) throws

    /// Whether a secret is stored under `name`. The default reads it with ``storedSecret(named:)``; implement it when
    /// a store can tell without reading (a `stat`, a query without the data).
    ///
    /// - Throws: ``CryptStoreError`` naming `name` when the store cannot tell.
    func hasSecret(named name: String) throws -> Bool

    /// The names that hold a secret, in any order and form.
    ///
    /// - Throws: ``CryptStoreError/listFailed(underlying:)``, or another ``CryptStoreError`` the store reports.
    func storedNames() throws -> [String]

    /// Removes every secret this store holds, and nothing it does not (another namespace's, another service's).
    ///
    /// - Throws: ``CryptStoreError/removeAllFailed(underlying:)``, or another ``CryptStoreError`` the store reports.
    func removeAll() throws

    /// The number of secrets this store holds. The default counts the names of ``storedNames()``, each once whatever
    /// its spelling, so it is the number of keys ``CryptStoring/keys()`` lists; implement it when a store can count
    /// without reading its secrets (``EncryptedFileCrypt`` counts its item files and opens none).
    ///
    /// - Throws: ``CryptStoreError/listFailed(underlying:)``, or another ``CryptStoreError`` the store reports.
    func itemCount() throws -> Int
}

extension CryptBackend {
    /// Whether ``storedSecret(named:)`` finds a secret under `name`.
    ///
    /// - Throws: What ``storedSecret(named:)`` throws.
    public func hasSecret(named name: String) throws -> Bool {
        try storedSecret(named: name) != nil
    }
}
