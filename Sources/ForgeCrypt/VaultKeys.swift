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
    /// File names already computed, by key: a name costs an HMAC, and an app reads the same few keys again.
    private let fileNames = LockedState<[String: String]>([:])
    /// The most names kept; past it the cache starts over, so arbitrary keys cannot grow it without bound.
    private static let fileNameCacheLimit = 512

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

    /// The file name of the item stored under `key`: 64 hex digits and ``itemExtension``.
    func fileName(for key: String) -> String {
        if let name = fileNames.withLock({ $0[key] }) { return name }
        let code = CryptoPrimitives.authenticationCode(
            for: Data(FileNameEncoding.canonicalForm(of: key).utf8),
            using: nameKey
        )
        let name = FileNameEncoding.hex(code) + Self.itemExtension
        fileNames.withLock { names in
            if names.count >= Self.fileNameCacheLimit { names.removeAll(keepingCapacity: true) }
            names[key] = name
        }
        return name
    }

    /// The contents of the item file that holds `plaintext` under `key`.
    func seal(_ plaintext: Data, for key: String) throws -> Data {
        var file = Data([Self.itemFormat])
        file.append(try CryptoPrimitives.seal(plaintext, using: itemKey, authenticating: Self.associatedData(for: key)))
        return file
    }

    /// The plaintext of an item file stored under `key`, or nil when the file does not authenticate.
    func open(_ file: Data, for key: String) -> Data? {
        guard file.first == Self.itemFormat else { return nil }
        return CryptoPrimitives.open(
            Data(file.dropFirst()),
            using: itemKey,
            authenticating: Self.associatedData(for: key)
        )
    }

    private static func associatedData(for key: String) -> Data {
        var data = Data([itemFormat])
        data.append(contentsOf: "forge-crypt.v1.item\u{0}".utf8)
        data.append(contentsOf: FileNameEncoding.canonicalForm(of: key).utf8)
        return data
    }
}
