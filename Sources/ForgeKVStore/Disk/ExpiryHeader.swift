internal import Foundation

/// The first line of a ``DiskKVStore`` file whose value has a lifetime: `#expires 1767225660000\n`, the expiration
/// date in whole milliseconds since 1970, then the file's usual contents (the value's JSON, or a long key's envelope).
///
/// No JSON text starts with `#`, so a file without the line is read as before lifetimes came, and a value without a
/// lifetime is written without it, byte for byte as before. A file that starts with `#` but not with a whole,
/// well-formed line is damaged: it reads as a corrupt file does.
enum ExpiryHeader {
    /// How the line starts.
    static let prefix = Array("#expires ".utf8)
    /// The most digits the line holds: those of `Int64.min`, its sign apart.
    static let maximumDigits = 19

    /// What a file holds, its header taken off.
    struct Contents: Equatable {
        /// When the value expires, in milliseconds since 1970; nil when the file has no header.
        var expiresAtMilliseconds: Int64?
        /// The file's contents after the header: what a file without a lifetime holds.
        var body: Data
    }

    /// The file that holds `body` and expires `expiresAtMilliseconds` after 1970; `body` itself when nil.
    static func file(holding body: Data, expiresAtMilliseconds: Int64?) -> Data {
        guard let expiresAtMilliseconds else { return body }
        return Data(prefix) + Data("\(expiresAtMilliseconds)\n".utf8) + body
    }

    /// The header and contents of `file`; nil when it starts with `#` and no well-formed header.
    static func read(_ file: Data) -> Contents? {
        guard file.first == UInt8(ascii: "#") else { return Contents(expiresAtMilliseconds: nil, body: file) }
        guard file.starts(with: prefix) else { return nil }
        let numberStart = file.index(file.startIndex, offsetBy: prefix.count)
        // The line's end, looked for no further than the longest number: a damaged file is not scanned to its end.
        let searchEnd = file.index(numberStart, offsetBy: maximumDigits + 2, limitedBy: file.endIndex) ?? file.endIndex
        guard let lineEnd = file[numberStart..<searchEnd].firstIndex(of: UInt8(ascii: "\n")),
            let milliseconds = number(file[numberStart..<lineEnd])
        else { return nil }
        return Contents(expiresAtMilliseconds: milliseconds, body: Data(file[file.index(after: lineEnd)...]))
    }

    /// The decimal number `bytes` spell: an optional `-`, then digits only.
    private static func number(_ bytes: Data.SubSequence) -> Int64? {
        let digits = bytes.first == UInt8(ascii: "-") ? bytes.dropFirst() : bytes[...]
        guard !digits.isEmpty, digits.count <= maximumDigits,
            digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return Int64(String(decoding: bytes, as: UTF8.self))
    }
}
