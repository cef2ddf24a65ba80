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
/// An item file is one format byte and the AES-GCM nonce, ciphertext and tag. Two formats exist:
/// - format 2, which `set` writes: the plaintext is the key name's byte count (4 bytes, big-endian), the NFC
///   key name in UTF-8 and the secret, so ``EncryptedFileCrypt/keys()`` can list the keys without any name in
///   the clear; the associated data is the format byte, a label and the item's file name;
/// - format 1, which earlier versions wrote: the plaintext is the secret alone, and the associated data is the
///   format byte, a label and the key name. It still reads, and becomes format 2 on the next `set` of its key.
///
/// Either way the associated data binds the item to its key (the file name is the key name's HMAC), so a file
/// copied into another item's place, or from another vault, fails to authenticate; and the format byte is
/// authenticated too, so one format is never read as the other.
struct VaultKeys: Sendable {
    /// The format byte of the items this code writes.
    static let itemFormat: UInt8 = 2
    /// The format byte of items written before key names were sealed in them.
    static let legacyItemFormat: UInt8 = 1
    /// The size of the big-endian byte count of the key name that starts a format-2 plaintext.
    static let nameLengthByteCount = 4
    /// The extension of item files.
    static let itemExtension = ".secret"

    private let itemKey: SymmetricKey
    private let nameKey: SymmetricKey
    private let checkKey: SymmetricKey
    /// Items already derived, by key name (a name costs an HMAC, and an app reads the same few keys again), and
    /// how many times ``item(for:)`` was called, kept under the same lock so counting costs no second one.
    private let items = LockedState<(byKey: [String: VaultItem], lookups: Int)>(([:], 0))
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

    /// How many times ``item(for:)`` was called on these keys, whether the item came from the cache or was derived.
    ///
    /// Each vault operation on one key asks for its item once (a `get` once, not once to find the file and again to
    /// open it); the tests read this count to hold every operation to that.
    var itemLookups: Int { items.withLock { $0.lookups } }

    /// The name, file name and format-1 associated data of the item stored under `key`.
    ///
    /// Ask once per operation and hand the item on: each call takes the cache's lock and hashes `key`.
    func item(for key: String) -> VaultItem {
        let cached = items.withLock { items in
            items.lookups += 1
            return items.byKey[key]
        }
        if let cached { return cached }
        let name = FileNameEncoding.canonicalForm(of: key)
        var legacyAssociatedData = Data([Self.legacyItemFormat])
        legacyAssociatedData.append(contentsOf: "forge-crypt.v1.item\u{0}".utf8)
        legacyAssociatedData.append(contentsOf: name.utf8)
        let hash = hash(ofCanonical: name)
        let fileName = hash + Self.itemExtension
        let item = VaultItem(
            name: name,
            hash: hash,
            fileName: fileName,
            associatedData: Self.associatedData(ofFileNamed: fileName),
            legacyAssociatedData: legacyAssociatedData
        )
        items.withLock { items in
            if items.byKey.count >= Self.itemCacheLimit { items.byKey.removeAll(keepingCapacity: true) }
            items.byKey[key] = item
        }
        return item
    }

    /// The item name of the key whose canonical form is `name`: the hex HMAC of its UTF-8.
    private func hash(ofCanonical name: String) -> String {
        FileNameEncoding.hex(CryptoPrimitives.authenticationCode(for: Data(name.utf8), using: nameKey))
    }

    /// The file name of the item of the key whose canonical form is `name`: its hash and ``itemExtension``.
    private func fileName(ofCanonical name: String) -> String {
        hash(ofCanonical: name) + Self.itemExtension
    }

    /// The data AES-GCM authenticates with the format-2 item in the file named `fileName`.
    private static func associatedData(ofFileNamed fileName: String) -> Data {
        var associatedData = Data([itemFormat])
        associatedData.append(contentsOf: "forge-crypt.v2.item\u{0}".utf8)
        associatedData.append(contentsOf: fileName.utf8)
        return associatedData
    }

    /// The contents of the format-2 file that holds `secret` as `item`, its key name sealed beside it.
    func seal(_ secret: Data, as item: VaultItem) throws -> Data {
        let name = Data(item.name.utf8)
        guard let nameLength = UInt32(exactly: name.count) else {
            throw CryptStoreError.encodingFailed(key: item.name, underlying: "the key name is too long for an item")
        }
        var plaintext = Data(capacity: Self.nameLengthByteCount + name.count + secret.count)
        withUnsafeBytes(of: nameLength.bigEndian) { plaintext.append(contentsOf: $0) }
        plaintext.append(name)
        plaintext.append(secret)
        var file = Data([Self.itemFormat])
        file.append(
            try CryptoPrimitives.seal(
                plaintext,
                using: itemKey,
                authenticating: item.associatedData
            )
        )
        return file
    }

    /// The secret of a file read as `item`, in either format, or nil when the file does not authenticate or its
    /// sealed name is not the item's.
    func open(_ file: Data, as item: VaultItem) -> Data? {
        switch file.first {
        case Self.itemFormat:
            // The sealed name is compared byte for byte and the secret handed on in place, without copies: the
            // vault's get benchmark missed its target with them.
            guard
                let plaintext = CryptoPrimitives.open(
                    file.dropFirst(),
                    using: itemKey,
                    authenticating: item.associatedData
                ),
                let (name, secret) = Self.parts(of: plaintext),
                name.elementsEqual(item.name.utf8)
            else { return nil }
            return secret
        case Self.legacyItemFormat:
            return CryptoPrimitives.open(file.dropFirst(), using: itemKey, authenticating: item.legacyAssociatedData)
        default:
            return nil
        }
    }

    /// What a file named `fileName` in the vault folder holds, for listing the keys.
    func listedItem(_ file: Data, fileName: String) -> ListedItem {
        switch file.first {
        case Self.itemFormat:
            // The sealed name must be the one the file is named after: a swapped or copied file never lists.
            guard let (name, _) = openNamed(file, fileName: fileName),
                fileName == self.fileName(ofCanonical: name)
            else { return .tampered }
            return .named(name)
        case Self.legacyItemFormat:
            return .unnamed
        default:
            return .tampered
        }
    }

    /// The key name and secret of the format-2 `file` named `fileName`, when it authenticates as the item of that
    /// name and holds the name the file is named after; nil otherwise (a format-1 file too).
    func namedItem(_ file: Data, fileName: String) -> (name: String, secret: Data)? {
        guard file.first == Self.itemFormat, let (name, secret) = openNamed(file, fileName: fileName),
            fileName == self.fileName(ofCanonical: name)
        else { return nil }
        return (name, secret)
    }

    /// The sealed key name and secret of the format-2 `file` named `fileName`, or nil when it does not
    /// authenticate or its plaintext is not a name and a secret.
    private func openNamed(_ file: Data, fileName: String) -> (name: String, secret: Data)? {
        guard
            let plaintext = CryptoPrimitives.open(
                file.dropFirst(),
                using: itemKey,
                authenticating: Self.associatedData(ofFileNamed: fileName)
            )
        else { return nil }
        guard let (nameBytes, secret) = Self.parts(of: plaintext) else { return nil }
        let name = String(decoding: nameBytes, as: UTF8.self)
        // Only UTF-8 is ever sealed: bytes that decode to something else are not a name this vault wrote.
        guard name.utf8.elementsEqual(nameBytes) else { return nil }
        return (name, secret)
    }

    /// The sealed name's bytes and the secret of a format-2 plaintext, as slices of it; nil when it is too short for
    /// the name its byte count announces.
    private static func parts(of plaintext: Data) -> (name: Data, secret: Data)? {
        let start = plaintext.startIndex
        guard plaintext.count >= nameLengthByteCount else { return nil }
        let nameStart = start + nameLengthByteCount
        let nameLength = plaintext[start..<nameStart].reduce(0) { $0 << 8 | Int($1) }
        guard nameLength <= plaintext.endIndex - nameStart else { return nil }
        let nameEnd = nameStart + nameLength
        return (plaintext[nameStart..<nameEnd], plaintext[nameEnd...])
    }
}
