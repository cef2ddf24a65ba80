internal import Foundation

/// What a vault's header records of one master key: its kind, how a passphrase is stretched, and its key-check value.
///
/// A settled header records one, in its own fields (``VaultHeader/primaryKey``); a header with a rotation under way
/// records the other key of the rotation too (``VaultRotation/otherKey``).
struct VaultKeyRecord: Sendable, Equatable {
    /// The kind of master key; nil in headers written before it was recorded.
    var kind: MasterKey.Kind?
    /// How the passphrase is stretched; nil for a key file or a symmetric key.
    var passphrase: PassphraseParameters?
    /// The HMAC of a fixed message under a key derived from the master key: see ``VaultKeys``.
    var keyCheck: Data

    /// Why this record, read from a header, cannot be used; nil when it can.
    var problem: String? {
        if keyCheck.isEmpty { return "the key-check value is missing" }
        if (kind == .passphrase) != (passphrase != nil) && kind != nil {
            return "the kind of master key does not match the passphrase parameters"
        }
        return passphrase?.problem
    }
}
