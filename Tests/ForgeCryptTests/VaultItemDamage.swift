import Foundation

/// A way an item file of the vault can be damaged, as the tampering tests do it to an item's bytes.
enum VaultItemDamage: String, CaseIterable, CustomStringConvertible, Sendable {
    /// A bit of the sealed box flipped.
    case flip
    /// Cut to its first ten bytes.
    case truncate
    /// Emptied.
    case empty
    /// A format byte no release writes.
    case unknownFormat
    /// The format byte of format 1 on a format 2 item: its associated data differs.
    case formatOneByte
    /// A byte appended.
    case append

    var description: String { rawValue }

    /// `bytes` damaged this way.
    func applied(to bytes: Data) -> Data {
        var bytes = bytes
        switch self {
        case .flip: bytes[bytes.count - 20] ^= 0x01
        case .truncate: bytes = bytes.prefix(10)
        case .empty: bytes = Data()
        case .unknownFormat: bytes[0] = 9
        case .formatOneByte: bytes[0] = 1
        case .append: bytes.append(0)
        }
        return bytes
    }
}
