internal import ForgeCore
public import Foundation

/// A dictionary-backed ``CryptStoring`` for tests and previews: fast, thread-safe, no entitlements, no disk.
///
/// It behaves like the Keychain and the vault: it is built on ``CryptBackend`` as they are, so values are encoded as
/// they would be stored (a value that fails to encode fails here too), and a read with another type than was written
/// decodes the stored bytes as that type or throws ``CryptStoreError/decodingFailed(key:underlying:)``, as they do.
/// Secrets live as long as the instance and are not encrypted: never use it to hold real secrets.
///
/// ```swift
/// let keychain = InMemoryCrypt()
/// try keychain.set("token123", for: AuthKeys.accessToken)
/// #expect(try keychain.get(AuthKeys.accessToken) == "token123")
/// ```
public final class InMemoryCrypt: Sendable {
    /// The secrets' bytes by key.
    ///
    /// Keys compare as Swift strings do, so canonically equivalent spellings (`é` and
    /// `e` + `◌́`) are one key, as in the Keychain and the vault, which store keys in their NFC spelling.
    let items = LockedState<[String: Data]>([:])
    /// Where a test's faults enter; lets every call through for a plain store.
    let faults: CryptFaultPoint
    /// The master key this twin stands for (it seals nothing), which ``rotateMasterKey(to:progress:)`` changes; nil
    /// for a store made without one.
    let masterKey: LockedState<MasterKey?>

    /// Creates an empty store.
    public init() {
        self.faults = CryptFaultPoint(nil)
        self.masterKey = LockedState(nil)
    }

    /// Creates an empty store that stands for a vault opened with `masterKey`.
    ///
    /// A twin of ``EncryptedFileCrypt`` (or `SQLiteCrypt`, `PostgresCrypt`) for a service that rotates its master key
    /// (``MasterKeyRotating``). It seals nothing.
    ///
    /// - Throws: ``CryptStoreError/invalidMasterKey(reason:)`` for a key a vault refuses (an empty passphrase, a
    ///   symmetric key shorter than 128 bits).
    public init(masterKey: MasterKey) throws(CryptStoreError) {
        try masterKey.validate()
        self.faults = CryptFaultPoint(nil)
        self.masterKey = LockedState(masterKey)
    }

    /// Creates an empty store that reports every operation to `instrument` (ForgeStorageTesting's faults and
    /// operation log).
    package init(instrument: (any StoreInstrument)?) {
        self.faults = CryptFaultPoint(instrument)
        self.masterKey = LockedState(nil)
    }
}

extension InMemoryCrypt: CryptStoring, CryptBackend {
    /// The bytes of the secret stored under `name`, or nil.
    ///
    /// - Throws: The ``CryptStoreError`` a test's fault asks for: damaged bytes fail authentication when a secret is
    ///   stored (``CryptStoreError/tamperedItem(key:)``, as in the vault); any other fault fails the read.
    public func storedSecret(named name: String) throws -> Data? {
        try faults.intercept(.readSecret(name)) { items.withLock { $0[name] } }
    }

    /// Stores `secret` under `name`.
    ///
    /// - Throws: The ``CryptStoreError/writeFailed(key:underlying:)`` (or the Keychain's error) a test's fault asks
    ///   for.
    public func store(_ secret: Data, named name: String) throws {
        _ = try faults.begin(.write, name)
        items.withLock { $0[name] = secret }
    }

    /// Removes the secret stored under `name`.
    ///
    /// - Throws: The ``CryptStoreError/removeFailed(key:underlying:)`` (or the Keychain's error) a test's fault asks
    ///   for.
    public func removeSecret(named name: String) throws {
        _ = try faults.begin(.delete, name)
        _ = items.withLock { $0.removeValue(forKey: name) }
    }

    /// Whether a secret is stored under `name`.
    ///
    /// - Throws: What a test's fault asks for, as the Keychain (a locked device) would throw it.
    public func hasSecret(named name: String) throws -> Bool {
        try faults.intercept(.exists(name)) { items.withLock { $0[name] != nil } }
    }

    /// The names that hold a secret, as they were stored.
    ///
    /// - Throws: ``CryptStoreError/listFailed(underlying:)`` when a test's fault fails the listing, as the vault's
    ///   does, or ``CryptStoreError/notAccessibleNow(key:)`` while the device is locked, as the Keychain.
    public func storedNames() throws -> [String] {
        _ = try faults.begin(.list, nil)
        return items.withLock { Array($0.keys) }
    }

    /// Removes every secret.
    ///
    /// - Throws: The ``CryptStoreError/removeAllFailed(underlying:)`` (or the Keychain's error) a test's fault asks
    ///   for.
    public func removeAll() throws {
        _ = try faults.begin(.deleteAll, nil)
        items.withLock { $0.removeAll() }
    }
}
