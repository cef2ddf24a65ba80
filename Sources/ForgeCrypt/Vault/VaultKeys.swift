internal import ForgeCore
internal import Foundation

/// The keys a vault derives from its master key, and the item format they seal.
///
/// From the master key and the vault identifier, HKDF-SHA256 derives three independent keys:
/// - the item key, which seals each item with AES-256-GCM;
/// - the name key, whose HMAC-SHA256 of a key name, in hex, names the item's file, so no key name
///   reaches the disk and equal names give equal files;
/// - the check key, whose HMAC-SHA256 of a fixed message is the header's key-check value.
///
/// An item file is one format byte (`1`) and the AES-GCM nonce, ciphertext and tag. The associated data is
/// the format byte, a label and the key name, so a file copied into another item's place, or from another
/// vault, fails to authenticate.
struct VaultKeys: Sendable {
    /// The first byte of every item file.
    static let itemFormat: UInt8 = 1
    /// The extension of item files.
    static let itemExtension = ".secret"

    private let itemKey: SymmetricKey
    private let nameKey: SymmetricKey
    private let checkKey: SymmetricKey
    /// Items already derived, by key name: a name costs an HMAC, and an app reads the same few keys again.
    private let items = LockedState<[String: VaultItem]>([:])
    /// The most items kept; past it the cache starts over, so arbitrary keys cannot grow it without bound.
    private static let itemCacheLimit = 512

    private static let checkMessage = Data("forge-crypt.v1.key-check".utf8)

    /// Derives the vault's keys from `masterKey` for the vault with identifier `vaultID`.
    init(masterKey: SymmetricKey, vaultID: Data) {
        itemKey = CryptoPrimitives.deriveKey(from: masterKey, salt: vaultID, info: "forge-crypt.v1.item-encryption")
        nameKey = CryptoPrimitives.deriveKey(from: masterKey, salt: vaultID, info: "forge-crypt.v1.item-names")
        checkKey = CryptoPrimitives.deriveKey(from: masterKey, salt: vaultID, info: "forge-crypt.v1.key-check")
    }

    /// The key-check value to store in a new vault's header.
    var keyCheck: Data {
        CryptoPrimitives.authenticationCode(for: Self.checkMessage, using: checkKey)
    }

    /// Whether `keyCheck`, read from a header, was made by the same master key.
    func matches(keyCheck: Data) -> Bool {
        CryptoPrimitives.isValidAuthenticationCode(keyCheck, for: Self.checkMessage, using: checkKey)
    }

    /// The file name and associated data of the item stored under `key`.
    func item(for key: String) -> VaultItem {
        if let item = items.withLock({ $0[key] }) { return item }
        let name = FileNameEncoding.canonicalForm(of: key)
        let code = CryptoPrimitives.authenticationCode(for: Data(name.utf8), using: nameKey)
        var associatedData = Data([Self.itemFormat])
        associatedData.append(contentsOf: "forge-crypt.v1.item\u{0}".utf8)
        associatedData.append(contentsOf: name.utf8)
        let item = VaultItem(fileName: FileNameEncoding.hex(code) + Self.itemExtension, associatedData: associatedData)
        items.withLock { items in
            if items.count >= Self.itemCacheLimit { items.removeAll(keepingCapacity: true) }
            items[key] = item
        }
        return item
    }

    /// The contents of the file that holds `plaintext` as `item`.
    func seal(_ plaintext: Data, as item: VaultItem) throws -> Data {
        var file = Data([Self.itemFormat])
        file.append(try CryptoPrimitives.seal(plaintext, using: itemKey, authenticating: item.associatedData))
        return file
    }

    /// The plaintext of a file read as `item`, or nil when the file does not authenticate.
    func open(_ file: Data, as item: VaultItem) -> Data? {
        guard file.first == Self.itemFormat else { return nil }
        return CryptoPrimitives.open(file.dropFirst(), using: itemKey, authenticating: item.associatedData)
    }
}
