internal import Foundation

/// A change of master key under way, as the vault's header records it (``VaultHeader/rotation``); see
/// ``EncryptedFileCrypt/rotateMasterKey(to:progress:)``.
///
/// It holds no secret a store of the new key does not already have: the other key's kind, passphrase parameters and
/// key-check value, and the old master key sealed with AES-256-GCM under a key that HKDF-SHA256 derives from the new
/// master key for this purpose only. So a store opened with the new key reads the items not resealed yet, while a
/// store opened with the old key learns nothing of the new one.
struct VaultRotation: Codable, Sendable, Equatable {
    /// How far a rotation has come.
    enum Phase: String, Codable, Sendable {
        /// The header's own fields are the old key's; items are being sealed again under the new key, beside the old
        /// key's, which all stay.
        case resealing
        /// The header's own fields are the new key's, whose items are all there; the old key's items are being
        /// removed.
        case retiring
    }

    /// How far the rotation has come.
    var phase: Phase
    /// The kind of the rotation's other master key: the new key's while resealing, the old key's while retiring.
    var masterKey: MasterKey.Kind?
    /// How the other master key's passphrase is stretched; nil for a key file or a symmetric key.
    var passphrase: PassphraseParameters?
    /// The other master key's key-check value.
    var keyCheck: Data
    /// The old master key's bytes (stretched, for a passphrase), sealed under a key derived from the new one.
    var sealedOldKey: Data
    /// How many items the vault held when the rotation began: what it counts until the rotation ends, since no
    /// other write happens meanwhile.
    var itemCount: Int

    /// The rotation's other master key: the new one while resealing, the old one while retiring.
    var otherKey: VaultKeyRecord {
        VaultKeyRecord(kind: masterKey, passphrase: passphrase, keyCheck: keyCheck)
    }

    /// Why this record, read from a header, cannot be used; nil when it can.
    var problem: String? {
        if sealedOldKey.isEmpty { return "the rotation's sealed old key is missing" }
        if itemCount < 0 { return "the rotation's item count is negative" }
        return otherKey.problem.map { "the rotation's other key: \($0)" }
    }

    private static let purpose = "forge-crypt.v1.rotation"

    /// Seals `oldKey`'s bytes under a key derived from `newKey`, bound to the vault and both keys' check values.
    static func seal(
        _ oldKey: SymmetricKey,
        under newKey: SymmetricKey,
        vaultID: Data,
        oldKeyCheck: Data,
        newKeyCheck: Data
    ) throws -> Data {
        try CryptoPrimitives.seal(
            CryptoPrimitives.bytes(of: oldKey),
            using: CryptoPrimitives.deriveKey(from: newKey, salt: vaultID, info: purpose),
            authenticating: associatedData(oldKeyCheck: oldKeyCheck, newKeyCheck: newKeyCheck)
        )
    }

    /// The old master key sealed in `sealed` by ``seal(_:under:vaultID:oldKeyCheck:newKeyCheck:)``, or nil when it
    /// does not open under `newKey`.
    static func openOldKey(
        _ sealed: Data,
        with newKey: SymmetricKey,
        vaultID: Data,
        oldKeyCheck: Data,
        newKeyCheck: Data
    ) -> SymmetricKey? {
        CryptoPrimitives.open(
            sealed,
            using: CryptoPrimitives.deriveKey(from: newKey, salt: vaultID, info: purpose),
            authenticating: associatedData(oldKeyCheck: oldKeyCheck, newKeyCheck: newKeyCheck)
        )
        .map(CryptoPrimitives.key)
    }

    private static func associatedData(oldKeyCheck: Data, newKeyCheck: Data) -> Data {
        var data = Data(purpose.utf8)
        data.append(0)
        data.append(oldKeyCheck)
        data.append(newKeyCheck)
        return data
    }
}
