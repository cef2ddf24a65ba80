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
    /// They hold no secret; they are the JSON of a vault's `vault.json`.
    public let header: Data
    /// The kind of master key the header was created with; nil for a header written before vaults recorded it.
    public var createdWith: MasterKey.Kind? { vaultHeader.masterKey }

    /// The header, decoded.
    let vaultHeader: VaultHeader
    /// The keys derived from the master key and the header.
    let keys: VaultKeys

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
        do {
            self.header = try JSONCodec.encode(header)
        } catch {
            throw .openFailed(path: location, underlying: .other(String(describing: error)))
        }
        self.vaultHeader = header
        self.keys = keys
    }

    /// Opens a sealer with a stored `header`, checking that `masterKey` is the key it was created with.
    ///
    /// A passphrase is stretched here (600,000 iterations of PBKDF2 for a new header): open a sealer once and keep it.
    ///
    /// - Parameters:
    ///   - masterKey: The master key the header was created with.
    ///   - header: The ``header`` of the sealer that created it, as stored.
    ///   - location: Where the items are kept, for errors: a vault's folder, a table and namespace.
    /// - Throws: ``CryptStoreError/wrongMasterKey(path:createdWith:)`` when `masterKey` is not the header's,
    ///   ``CryptStoreError/corruptVault(path:reason:)`` when `header` is not a header this library can read,
    ///   ``CryptStoreError/keyFileNotFound(path:vaultPath:)`` when the key file is missing, or the errors of the key
    ///   file; each names `location`.
    public init(masterKey: MasterKey, header: Data, location: String) throws(CryptStoreError) {
        try self.init(masterKey: masterKey, header: header, location: location, headerName: "the header")
    }

    /// Opens a sealer with a stored `header`, whose errors call it `headerName`.
    init(masterKey: MasterKey, header: Data, location: String, headerName: String) throws(CryptStoreError) {
        try masterKey.validate()
        guard let decoded = try? JSONCodec.decode(VaultHeader.self, from: header) else {
            throw .corruptVault(path: location, reason: "\(headerName) is not a vault header")
        }
        if let problem = decoded.problem { throw .corruptVault(path: location, reason: problem) }
        let key = try masterKey.keyBytes(forVaultWith: decoded, vaultPath: location)
        let keys = VaultKeys(masterKey: key, vaultID: decoded.vaultID)
        guard keys.matches(keyCheck: decoded.keyCheck) else {
            throw .wrongMasterKey(path: location, createdWith: decoded.masterKey)
        }
        self.header = header
        self.vaultHeader = decoded
        self.keys = keys
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

    /// Whether `header`, read back from where it is stored, is this sealer's header: the same bytes, or a header of
    /// the same vault identifier and key check.
    ///
    /// A store checks it before writing, so an item is never sealed for a header that was replaced meanwhile.
    public func isSameVault(asHeader header: Data) -> Bool {
        if header == self.header { return true }
        guard let found = try? JSONCodec.decode(VaultHeader.self, from: header) else { return false }
        return found.vaultID == vaultHeader.vaultID && found.keyCheck == vaultHeader.keyCheck
    }
}
