internal import Foundation

/// What a vault derives from one key name to find and authenticate the key's item: computed once per key
/// by ``VaultKeys/item(for:)`` and kept, as an app reads the same few keys again and again.
struct VaultItem: Sendable {
    /// The key name in its canonical (NFC) form, as format-2 items seal it.
    let name: String
    /// The item's name: the HMAC-SHA256 of the key name under the vault's name key, in lowercase hex.
    let hash: String
    /// The item's file name: ``hash`` and ``VaultKeys/itemExtension``.
    let fileName: String
    /// The data that AES-GCM authenticates with a format-2 item: the format byte, a label and the file name.
    let associatedData: Data
    /// The data that AES-GCM authenticates with a format-1 item: the format byte, a label and the key name.
    let legacyAssociatedData: Data
}
