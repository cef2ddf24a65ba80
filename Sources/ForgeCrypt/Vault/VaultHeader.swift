internal import Foundation

/// The vault's `vault.json`: what a store needs, besides the master key, to open the vault.
///
/// It holds no secret: a random vault identifier (the HKDF salt of every derived key, so two vaults with
/// the same master key share no key), the kind of master key the vault was created with, the passphrase
/// parameters of a passphrase vault, and the key-check value that tells a wrong master key apart from a
/// tampered item. While the master key is being changed, it also records the rotation (``rotation``); a settled
/// header has none, and reads as headers always have.
struct VaultHeader: Codable, Sendable, Equatable {
    /// The format this code writes and reads.
    static let currentFormat = 1
    /// The header's file name in the vault folder.
    ///
    /// Item names are hex digits, so they never take it.
    static let fileName = "vault.json"
    /// The size of a vault identifier, in bytes.
    static let vaultIDByteCount = 16

    /// The format version: ``currentFormat``.
    var format: Int
    /// The random identifier of this vault.
    var vaultID: Data
    /// The kind of master key the vault was created with; nil in headers written before it was recorded.
    ///
    /// It names the kind in errors; a vault opens with any master key that passes the key check, so a key
    /// file's bytes also open it as a symmetric key.
    var masterKey: MasterKey.Kind?
    /// How the passphrase is stretched; nil when the vault uses a key file or a symmetric key.
    var passphrase: PassphraseParameters?
    /// The HMAC of a fixed message under a key derived for this purpose only: see ``VaultKeys``.
    var keyCheck: Data
    /// The change of master key under way; nil in a settled header (and in every header written before rotations).
    var rotation: VaultRotation?

    /// The master key of the header's own fields: the vault's key, and while resealing the rotation's old key.
    var primaryKey: VaultKeyRecord {
        VaultKeyRecord(kind: masterKey, passphrase: passphrase, keyCheck: keyCheck)
    }

    /// The header of this vault settled on the key `record` describes: no rotation under way.
    func settled(on record: VaultKeyRecord) -> VaultHeader {
        VaultHeader(
            format: format,
            vaultID: vaultID,
            masterKey: record.kind,
            passphrase: record.passphrase,
            keyCheck: record.keyCheck
        )
    }

    /// Why this header, read from disk, cannot be used; nil when it can.
    var problem: String? {
        if format != Self.currentFormat { return "unknown format \(format)" }
        if vaultID.count != Self.vaultIDByteCount { return "the vault identifier has the wrong size" }
        return primaryKey.problem ?? rotation?.problem
    }
}
