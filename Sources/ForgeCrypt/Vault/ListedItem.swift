/// What ``VaultKeys/listedItem(_:fileName:)`` finds in an item file while the vault lists its keys.
enum ListedItem: Sendable, Equatable {
    /// A format-2 item that authenticates, of the key with this canonical (NFC) name.
    case named(String)
    /// A format-1 item: its key name is not in it, so it cannot be listed until its key is set again.
    case unnamed
    /// A file that does not authenticate as the item it is named after.
    case tampered
}
