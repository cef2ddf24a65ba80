public import Foundation
internal import ForgeCore

/// Seals and opens secrets in the vault's item format, for a store that keeps its items somewhere else than in a
/// vault folder: a database table, an object store.
///
/// A sealer is what ``EncryptedFileCrypt`` uses for its own items, without the folder. It is made from a
/// ``MasterKey`` and a header: the bytes the vault keeps as its `vault.json` (a random vault identifier, the kind
/// of master key, the passphrase parameters, a key-check value; no secret). The other store persists the header
/// once per namespace and opens every later sealer with it, so a wrong master key is told apart from a tampered
/// item with the vault's own errors.
///
/// ```swift
/// // The first time: a new header, to store beside the items.
/// let sealer = try SecretSealer(newHeaderFor: .symmetric(key), location: "secrets table, namespace 'app'")
/// save(header: sealer.header)
/// // Every later time: the stored header.
/// let sealer = try SecretSealer(masterKey: .symmetric(key), header: loadHeader(), location: "…")
/// let row = (name: sealer.itemName(for: "token"), item: try sealer.seal("s3cr3t", for: "token"))
/// let secret = try sealer.open(row.item, as: String.self, for: "token")
/// ```
///
/// A store built on ``CryptBackend`` or ``AsyncCryptBackend`` is handed a secret's bytes, not a value: it looks up the
/// key's ``Item`` once (``item(for:)``), stores the bytes sealed ``seal(_:as:)`` under the item's ``Item/name``, and
/// opens what it reads back with ``open(_:as:)``, so each call derives the key's item once, as the vault does.
///
/// An item's name (``itemName(for:)``) is a keyed hash of the key name, so whoever reads the store without the
/// master key sees neither a secret nor a key name. Each item is bound to its name: an item stored under another
/// key's name fails to open. Items are byte for byte the vault's: an item sealed here, under a vault's header,
/// opens in that vault as the file named ``itemName(for:)`` followed by `.secret`.
public struct SecretSealer: Sendable {
    /// The header's bytes: store them once, beside the items, and give them to ``init(masterKey:header:location:)``.
    ///
    /// They hold no secret; they are the JSON of a vault's `vault.json`. For a sealer opened with a stored header,
    /// the header as stored, with the rotation it records, if any.
    public let header: Data
    /// The kind of master key the header was created with; nil for a header written before vaults recorded it.
    ///
    /// While a rotation records its new key, it is the kind of the old one until the rotation switches.
    public var createdWith: MasterKey.Kind? { vaultHeader.masterKey }

    /// The header, decoded.
    let vaultHeader: VaultHeader
    /// The keys derived from the master key and the header.
    let keys: VaultKeys
    /// The master key's bytes (stretched, for a passphrase): what a rotation seals under its new key.
    let masterKeyBytes: SymmetricKey
    /// The key-check value of ``masterKeyBytes`` in this vault.
    let keyCheck: Data
    /// The old key of the rotation the header records, when this sealer was opened with its new key.
    let oldKey: OldKey?

    /// The keys of a rotation's old master key, which a sealer opened with the new key opens from the header.
    struct OldKey: Sendable {
        /// The old master key's bytes.
        let bytes: SymmetricKey
        /// The keys derived from them.
        let keys: VaultKeys
    }

    /// Creates a sealer with a new header: a new random vault identifier, and for a passphrase a new salt.
    ///
    /// A ``MasterKey/keyFile(_:)`` that does not exist is created, owner-only, as a new vault creates it.
    ///
    /// - Parameters:
    ///   - masterKey: The key every item is sealed under, through keys derived from it.
    ///   - location: Where the items are kept, for errors: a vault's folder, a table and namespace.
    /// - Throws: ``CryptStoreError/invalidMasterKey(reason:)``, ``CryptStoreError/insecureKeyFile(path:permissions:)``
    ///   or ``CryptStoreError/openFailed(path:underlying:)`` naming `location` or the key file.
    public init(newHeaderFor masterKey: MasterKey, location: String) throws(CryptStoreError) {
        try masterKey.validate()
        let (key, passphrase) = try masterKey.keyForNewVault(vaultPath: location)
        let vaultID = CryptoPrimitives.randomBytes(count: VaultHeader.vaultIDByteCount)
        let keys = VaultKeys(masterKey: key, vaultID: vaultID)
        let header = VaultHeader(
            format: VaultHeader.currentFormat,
            vaultID: vaultID,
            masterKey: masterKey.kind,
            passphrase: passphrase,
            keyCheck: keys.keyCheck
        )
        try self.init(settled: header, keys: keys, masterKeyBytes: key, location: location)
    }

    /// Opens a sealer with a stored `header`, checking that `masterKey` is the key it was created with.
    ///
    /// A passphrase is stretched here (600,000 iterations of PBKDF2 for a new header): open a sealer once and keep it.
    ///
    /// While the header records a rotation of the master key (see ``rotation(to:location:)``), the sealer opens with
    /// the old key until the rotation switches, and with the new key all along; opened with the new key, it also
    /// opens the items not resealed yet, through ``oldKeySealer``.
    ///
    /// - Parameters:
    ///   - masterKey: The master key the header was created with, or the new key of the rotation it records.
    ///   - header: The ``header`` of the sealer that created it, as stored.
    ///   - location: Where the items are kept, for errors: a vault's folder, a table and namespace.
    /// - Throws: ``CryptStoreError/wrongMasterKey(path:createdWith:)`` when `masterKey` is not the header's,
    ///   ``CryptStoreError/masterKeyRotated(path:)`` when it is the old key of a rotation that has switched,
    ///   ``CryptStoreError/corruptVault(path:reason:)`` when `header` is not a header this library can read,
    ///   ``CryptStoreError/keyFileNotFound(path:vaultPath:)`` when the key file is missing, or the errors of the key
    ///   file; each names `location`.
    public init(masterKey: MasterKey, header: Data, location: String) throws(CryptStoreError) {
        try self.init(masterKey: masterKey, header: header, location: location, headerName: "the header")
    }

    /// Opens a sealer with a stored `header`, whose errors call it `headerName`.
    init(masterKey: MasterKey, header: Data, location: String, headerName: String) throws(CryptStoreError) {
        try masterKey.validate()
        let decoded = try Self.decode(header, location: location, headerName: headerName)
        // The header's own key first; then, during a rotation, its other key.
        for record in [decoded.primaryKey] + (decoded.rotation.map { [$0.otherKey] } ?? []) {
            let bytes: SymmetricKey
            do {
                bytes = try masterKey.keyBytes(for: record, vaultPath: location)
            } catch .wrongMasterKey {
                continue
            }
            if let opened = try Self(header: header, decoded: decoded, masterKeyBytes: bytes, location: location) {
                self = opened
                return
            }
        }
        throw .wrongMasterKey(path: location, createdWith: decoded.masterKey)
    }

    /// The sealer of `header` for the master key whose bytes are `masterKeyBytes`, or nil when they open neither the
    /// header's key nor the other key of the rotation it records.
    ///
    /// - Throws: ``CryptStoreError/masterKeyRotated(path:)`` for the old key of a rotation that has switched, or
    ///   ``CryptStoreError/corruptVault(path:reason:)`` when the old key sealed in the header does not open.
    init?(
        header: Data,
        decoded: VaultHeader,
        masterKeyBytes: SymmetricKey,
        location: String
    ) throws(CryptStoreError) {
        let keys = VaultKeys(masterKey: masterKeyBytes, vaultID: decoded.vaultID)
        let isPrimary = keys.matches(keyCheck: decoded.keyCheck)
        guard isPrimary || decoded.rotation.map({ keys.matches(keyCheck: $0.keyCheck) }) == true else { return nil }
        var oldKey: OldKey?
        switch (decoded.rotation?.phase, isPrimary) {
        case (nil, _), (.resealing, true):
            // A settled header, or the old key of a rotation still resealing: the header's own key.
            break
        case (.retiring, false):
            throw .masterKeyRotated(path: location)
        case (.resealing, false), (.retiring, true):
            guard let rotation = decoded.rotation else { return nil }
            let (old, new) =
                isPrimary ? (rotation.otherKey, decoded.primaryKey) : (decoded.primaryKey, rotation.otherKey)
            guard
                let bytes = VaultRotation.openOldKey(
                    rotation.sealedOldKey,
                    with: masterKeyBytes,
                    vaultID: decoded.vaultID,
                    oldKeyCheck: old.keyCheck,
                    newKeyCheck: new.keyCheck
                )
            else {
                throw .corruptVault(path: location, reason: "the old master key sealed in the rotation does not open")
            }
            let oldKeys = VaultKeys(masterKey: bytes, vaultID: decoded.vaultID)
            guard oldKeys.matches(keyCheck: old.keyCheck) else {
                throw .corruptVault(
                    path: location,
                    reason: "the old master key sealed in the rotation is not the old key"
                )
            }
            oldKey = OldKey(bytes: bytes, keys: oldKeys)
        }
        self.init(
            header: header,
            vaultHeader: decoded,
            keys: keys,
            masterKeyBytes: masterKeyBytes,
            keyCheck: isPrimary ? decoded.keyCheck : decoded.rotation?.keyCheck ?? decoded.keyCheck,
            oldKey: oldKey
        )
    }

    /// A sealer of the settled `header`, made here with `keys` from `masterKeyBytes`.
    init(
        settled header: VaultHeader,
        keys: VaultKeys,
        masterKeyBytes: SymmetricKey,
        location: String
    ) throws(CryptStoreError) {
        self.init(
            header: try Self.encode(header, location: location),
            vaultHeader: header,
            keys: keys,
            masterKeyBytes: masterKeyBytes,
            keyCheck: header.keyCheck,
            oldKey: nil
        )
    }

    /// A sealer of these parts, as they are.
    init(
        header: Data,
        vaultHeader: VaultHeader,
        keys: VaultKeys,
        masterKeyBytes: SymmetricKey,
        keyCheck: Data,
        oldKey: OldKey?
    ) {
        self.header = header
        self.vaultHeader = vaultHeader
        self.keys = keys
        self.masterKeyBytes = masterKeyBytes
        self.keyCheck = keyCheck
        self.oldKey = oldKey
    }

    /// The header in `bytes`, decoded and checked.
    ///
    /// - Throws: ``CryptStoreError/corruptVault(path:reason:)`` naming `location`.
    static func decode(_ bytes: Data, location: String, headerName: String) throws(CryptStoreError) -> VaultHeader {
        guard let decoded = try? JSONCodec.decode(VaultHeader.self, from: bytes) else {
            throw .corruptVault(path: location, reason: "\(headerName) is not a vault header")
        }
        if let problem = decoded.problem { throw .corruptVault(path: location, reason: problem) }
        return decoded
    }

    /// The bytes of `header`.
    ///
    /// - Throws: ``CryptStoreError/openFailed(path:underlying:)`` naming `location`, which JSON's encoder never gives
    ///   a cause for.
    static func encode(_ header: VaultHeader, location: String) throws(CryptStoreError) -> Data {
        do {
            return try JSONCodec.encode(header)
        } catch {
            throw .openFailed(path: location, underlying: .other(String(describing: error)))
        }
    }
}

extension SecretSealer {
    /// The name of the item of `key`: the HMAC-SHA256 of its canonical (NFC) form under a key derived for names,
    /// in 64 lowercase hex digits.
    ///
    /// Equal (and canonically equivalent) key names give equal item names; without the master key, an item name
    /// tells nothing about its key. It is the name an item is stored and found under.
    public func itemName(for key: String) -> String {
        keys.item(for: key).hash
    }

    /// Whether `name` has the form of an item name: 64 lowercase hex digits.
    ///
    /// Anything else beside the items (the header's name, a name someone else wrote) is not an item.
    public static func isItemName(_ name: some StringProtocol) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy(lowercaseHexDigits.contains)
    }

    /// The digits of an item name.
    private static let lowercaseHexDigits = Set("0123456789abcdef".utf8)

    /// Seals `value` as the item of `key`, with the key's name sealed beside it (for listing), bound to the
    /// item's name.
    ///
    /// The value becomes bytes as in every ``CryptStoring``: `Data` as itself, `String` as its UTF-8, anything else
    /// as JSON. Every call uses a new random nonce, so sealing one secret twice gives two different items.
    ///
    /// - Returns: The item, to store under ``itemName(for:)``.
    /// - Throws: ``CryptStoreError/encodingFailed(key:underlying:)`` when the value cannot be encoded or the key name
    ///   is too long, or ``CryptStoreError/writeFailed(key:underlying:)`` when the cryptographic library fails.
    public func seal<Value: Codable & Sendable>(_ value: Value, for key: String) throws(CryptStoreError) -> Data {
        try seal(SecretCoding.encode(value, key: key), as: item(for: key))
    }

    /// The value of `item`, stored under the item name of `key`, as a `Value`.
    ///
    /// - Throws: ``CryptStoreError/tamperedItem(key:)`` naming `key` when the item fails to authenticate (it was
    ///   changed, sealed under another master key or header, or sealed for another key), or
    ///   ``CryptStoreError/decodingFailed(key:underlying:)`` when the secret is not a `Value`.
    public func open<Value: Codable & Sendable>(
        _ item: Data,
        as type: Value.Type = Value.self,
        for key: String
    ) throws(CryptStoreError) -> Value {
        try SecretCoding.decode(type, from: open(item, as: self.item(for: key)), key: key)
    }

    /// The key name sealed in `item`, stored under `itemName`, for listing the keys.
    ///
    /// - Returns: The key's canonical (NFC) name; nil for an item of the vault's first format, which holds no name.
    /// - Throws: ``CryptStoreError/tamperedItem(key:)`` naming `itemName` when the item fails to authenticate as
    ///   the item of that name, or holds another key's name.
    public func key(inSealedItem item: Data, named itemName: String) throws(CryptStoreError) -> String? {
        switch keys.listedItem(item, fileName: itemName + VaultKeys.itemExtension) {
        case .named(let key): return key
        case .unnamed: return nil
        case .tampered: throw .tamperedItem(key: itemName)
        }
    }

    /// Whether `header`, read back from where it is stored, is this sealer's header, on which it may write: the same
    /// vault identifier and key check, and no rotation of the master key under way (``match(header:)`` is
    /// ``HeaderMatch/same``).
    ///
    /// A store checks it before writing, so an item is never sealed for a header that was replaced meanwhile, nor
    /// written while the vault's master key is being changed.
    public func isSameVault(asHeader header: Data) -> Bool {
        match(header: header) == .same
    }
}
