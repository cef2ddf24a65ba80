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
}

extension InMemoryCrypt {
    /// Reports `operation` on `name` (nil for every name) to the instrument, and returns the fault it asks for.
    ///
    /// A plain store has no instrument and never fails.
    private func report(_ operation: StoreOperation, _ name: String?) -> InjectedFault? {
        instrument?.begin(operation, target: name)
    }

    /// Throws what the real stores throw when `call` on `name` (nil for every name) fails as `fault` says;
    /// returns when there is no fault.
    ///
    /// A locked device is the Keychain answering `errSecInteractionNotAllowed`, through the Keychain's mapping
    /// of statuses; the other faults are the vault's files failing with their `errno`, through `mapping`, the
    /// vault's own (`CryptStoreError(_:writing:)` and the like). A test's own error is thrown as it is.
    private func fail(
        _ fault: InjectedFault?,
        _ call: FileSystemError.Operation,
        _ name: String?,
        mappedBy mapping: (FileSystemError) -> CryptStoreError
    ) throws {
        guard let fault else { return }
        if case .deviceLocked = fault {
            throw KeychainStatus.error(for: KeychainStatus.interactionNotAllowed, key: name)
        }
        try fault.fail(call, name ?? "", mappedBy: mapping)
    }
}

extension InMemoryCrypt: CryptStoring, CryptBackend {
    /// The bytes of the secret stored under `name`, or nil.
    ///
    /// - Throws: The ``CryptStoreError`` a test's fault asks for: damaged bytes fail authentication when a secret is
    ///   stored (``CryptStoreError/tamperedItem(key:)``, as in the vault); any other fault fails the read.
    public func storedSecret(named name: String) throws -> Data? {
        let fault = report(.read, name)
        if fault?.isCorruptData != true { try fail(fault, .open, name) { CryptStoreError($0, reading: name) } }
        guard let secret = items.withLock({ $0[name] }) else { return nil }
        if fault != nil { throw CryptStoreError.tamperedItem(key: name) }
        return secret
    }

    /// Stores `secret` under `name`.
    ///
    /// - Throws: The ``CryptStoreError/writeFailed(key:underlying:)`` (or the Keychain's error) a test's fault asks
    ///   for.
    public func store(_ secret: Data, named name: String) throws {
        try fail(report(.write, name), .open, name) { CryptStoreError($0, writing: name) }
        items.withLock { $0[name] = secret }
    }

    /// Removes the secret stored under `name`.
    ///
    /// - Throws: The ``CryptStoreError/removeFailed(key:underlying:)`` (or the Keychain's error) a test's fault asks
    ///   for.
    public func removeSecret(named name: String) throws {
        try fail(report(.delete, name), .remove, name) { CryptStoreError($0, removing: name) }
        _ = items.withLock { $0.removeValue(forKey: name) }
    }

    /// Whether a secret is stored under `name`.
    ///
    /// - Throws: What a test's fault asks for, as the Keychain (a locked device) would throw it.
    public func hasSecret(named name: String) throws -> Bool {
        if let fault = report(.exists, name) {
            // The Keychain cannot tell while the device is locked, and a test's own error is thrown; a vault file
            // that may not be looked at is not there, and one on a full or damaged disk still is.
            switch fault {
            case .deviceLocked, .error: try fail(fault, .stat, name) { CryptStoreError($0, reading: name) }
            case .permissionDenied: return false
            case .outOfSpace, .corruptData: break
            }
        }
        return items.withLock { $0[name] != nil }
    }

    /// The names that hold a secret, as they were stored.
    ///
    /// - Throws: ``CryptStoreError/listFailed(underlying:)`` when a test's fault fails the listing, as the vault's
    ///   does, or ``CryptStoreError/notAccessibleNow(key:)`` while the device is locked, as the Keychain.
    public func storedNames() throws -> [String] {
        try fail(report(.list, nil), .list, nil) { CryptStoreError(listing: $0) }
        return items.withLock { Array($0.keys) }
    }

    /// Removes every secret.
    ///
    /// - Throws: The ``CryptStoreError/removeAllFailed(underlying:)`` (or the Keychain's error) a test's fault asks
    ///   for.
    public func removeAll() throws {
        try fail(report(.deleteAll, nil), .list, nil) { CryptStoreError($0, removing: nil) }
        items.withLock { $0.removeAll() }
    }
}
