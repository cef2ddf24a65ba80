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
}

extension InMemoryCrypt {
    /// Reports `operation` on `key` (nil for every key) to the instrument, and returns the fault it asks for.
    ///
    /// A plain store has no instrument and never fails.
    private func report(_ operation: StoreOperation, _ key: String?) -> InjectedFault? {
        instrument?.begin(operation, target: key)
    }

    /// Throws what the real stores throw when `call` on `key` (nil for every key) fails as `fault` says;
    /// returns when there is no fault.
    ///
    /// A locked device is the Keychain answering `errSecInteractionNotAllowed`, through the Keychain's mapping
    /// of statuses; the other faults are the vault's files failing with their `errno`, through `mapping`, the
    /// vault's own (`CryptStoreError(_:writing:)` and the like). A test's own error is thrown as it is.
    private func fail(
        _ fault: InjectedFault?,
        _ call: FileSystemError.Operation,
        _ key: String?,
        mappedBy mapping: (FileSystemError) -> CryptStoreError
    ) throws {
        guard let fault else { return }
        if case .deviceLocked = fault {
            throw KeychainStatus.error(for: KeychainStatus.interactionNotAllowed, key: key)
        }
        try fault.fail(call, key ?? "", mappedBy: mapping)
    }
}

extension InMemoryCrypt: CryptStoring {
    /// Returns the secret stored for `key`, or nil.
    ///
    /// - Throws: ``CryptStoreError/decodingFailed(key:underlying:)`` when the secret is not a `Value`.
    public func get<Value: Codable & Sendable>(_ key: CryptKey<Value>) throws -> Value? {
        // Damaged bytes fail authentication when a secret is stored, as in the vault; any other fault fails the read.
        let fault = report(.read, key.key)
        if fault?.isCorruptData != true { try fail(fault, .open, key.key) { CryptStoreError($0, reading: key.key) } }
        guard let data = items.withLock({ $0[key.key] }) else { return nil }
        if fault != nil { throw CryptStoreError.tamperedItem(key: key.key) }
        return try SecretCoding.decode(Value.self, from: data, key: key.key)
    }

    /// Stores `value` for `key`.
    ///
    /// - Throws: ``CryptStoreError/encodingFailed(key:underlying:)`` when the value cannot be encoded.
    public func set<Value: Codable & Sendable>(_ value: Value, for key: CryptKey<Value>) throws {
        let data = try SecretCoding.encode(value, key: key.key)
        try fail(report(.write, key.key), .open, key.key) { CryptStoreError($0, writing: key.key) }
        items.withLock { $0[key.key] = data }
    }

    /// Removes the secret stored for `key`.
    public func delete<Value: Codable & Sendable>(_ key: CryptKey<Value>) throws {
        try fail(report(.delete, key.key), .remove, key.key) { CryptStoreError($0, removing: key.key) }
        _ = items.withLock { $0.removeValue(forKey: key.key) }
    }

    /// Returns true when a secret is stored for `key`.
    public func contains<Value: Codable & Sendable>(_ key: CryptKey<Value>) throws -> Bool {
        if let fault = report(.exists, key.key) {
            // The Keychain cannot tell while the device is locked, and a test's own error is thrown; a vault file
            // that may not be looked at is not there, and one on a full or damaged disk still is.
            switch fault {
            case .deviceLocked, .error: try fail(fault, .stat, key.key) { CryptStoreError($0, reading: key.key) }
            case .permissionDenied: return false
            case .outOfSpace, .corruptData: break
            }
        }
        return items.withLock { $0[key.key] != nil }
    }

    /// Removes every secret.
    public func deleteAll() throws {
        try fail(report(.deleteAll, nil), .list, nil) { CryptStoreError($0, removing: nil) }
        items.withLock { $0.removeAll() }
    }

    /// The keys that hold a secret, sorted, each in its canonical (NFC) form.
    ///
    /// A key is listed in NFC whichever spelling it was stored under, as the Keychain and the vault list it.
    ///
    /// - Returns: The keys, sorted.
    /// - Throws: ``CryptStoreError/listFailed(underlying:)`` when a test's fault fails the listing, as the
    ///   vault's does, or ``CryptStoreError/notAccessibleNow(key:)`` while the device is locked, as the Keychain.
    public func keys() throws -> [String] {
        try fail(report(.list, nil), .list, nil) { CryptStoreError(listing: $0) }
        return items.withLock { $0.keys.map(FileNameEncoding.canonicalForm(of:)) }.sorted()
    }
}
