internal import Foundation

/// Turns any key into a file name that is valid, distinct and stays inside its folder.
///
/// The mapping is reversible, so distinct keys always give distinct names:
/// - `a`–`z`, `0`–`9`, `-`, `_` and `.` stay as they are (a leading `.` is escaped, so no name is hidden);
/// - an uppercase letter becomes `^` and the letter in lowercase, so names never differ only in case
///   (macOS and Windows volumes fold case);
/// - every other byte of the key's UTF-8 becomes `%` and two lowercase hex digits (`/` is `%2f`, NUL is
///   `%00`, `é` is `%c3%a9`), so no name holds a separator, a control character or a letter a volume
///   might normalise;
/// - the empty key becomes `%`, which no other key produces.
///
/// `"taskflow.projectName"` becomes `taskflow.project^name`.
///
/// Keys are compared as Swift compares strings: canonically equivalent keys (`"é"` precomposed and `"e"`
/// followed by a combining accent) are one key. ``canonicalForm(of:)`` picks the one spelling (NFC) that
/// ``encode(_:)`` escapes and that stores keyed by raw bytes should use.
package enum FileNameEncoding {
    /// The longest name, in bytes, that every supported file system accepts.
    package static let maximumNameLength = 255

    /// The Unicode NFC spelling of `key`, so canonically equivalent keys become the same bytes.
    ///
    /// ASCII keys are returned as they are. Other keys go through Foundation's NFC, as they always have: the result
    /// names files on disk, so it must not change with the standard library's Unicode tables.
    package static func canonicalForm(of key: String) -> String {
        if isASCII(key) { return key }
        return key.precomposedStringWithCanonicalMapping
    }

    /// Whether `name` is spelled in NFC already, as ``canonicalForm(of:)`` would leave it: byte for byte, not by
    /// canonical equivalence (which Swift's `==` uses).
    package static func isCanonical(_ name: String) -> Bool {
        if isASCII(name) { return true }
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            // The standard library's own check, with no NFC copy made: a listing of 10,000 names, one in ten not
            // ASCII, took 1.15x a sorted `readdir` with it and 1.30x through Foundation's NFC copy (release build).
            // Its quick check settles nearly every name without allocating; the full one settles the rest.
            var span = name.utf8Span
            return span.checkForNFC(quickCheck: true) || span.checkForNFC(quickCheck: false)
        }
        return name.precomposedStringWithCanonicalMapping.utf8.elementsEqual(name.utf8)
    }

    /// Whether `string` is all ASCII, which has one Unicode spelling only.
    package static func isASCII(_ string: String) -> Bool {
        string.utf8.allSatisfy { $0 < 0x80 }
    }

    /// The reversible, file-system-safe form of `key`'s ``canonicalForm(of:)``.
    package static func encode(_ key: String) -> String {
        if key.isEmpty { return "%" }
        let bytes = Array(canonicalForm(of: key).utf8)
        var output: [UInt8] = []
        // Each byte of the key gives at most three (`%hh`).
        output.reserveCapacity(bytes.count * 3)
        for (offset, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"):
                output.append(byte)
            case UInt8(ascii: ".") where offset > 0:
                output.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                output.append(UInt8(ascii: "^"))
                output.append(byte + 32)
            default:
                output.append(UInt8(ascii: "%"))
                appendHex(byte, to: &output)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The key that ``encode(_:)`` turned into `name`, or nil when `name` is not such a form.
    package static func decode(_ name: String) -> String? {
        if name == "%" { return "" }
        var output: [UInt8] = []
        var bytes = name.utf8.makeIterator()
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: "^"):
                guard let letter = bytes.next(), (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(letter) else {
                    return nil
                }
                output.append(letter - 32)
            case UInt8(ascii: "%"):
                guard let high = bytes.next().flatMap(hexValue), let low = bytes.next().flatMap(hexValue) else {
                    return nil
                }
                output.append(high << 4 | low)
            default:
                output.append(byte)
            }
        }
        return String(validating: output, as: UTF8.self)
    }

    /// A 64-bit FNV-1a hash of `key`'s UTF-8, as 16 hex digits: stable across processes and platforms.
    ///
    /// Used to shorten names that would be too long. It is not collision-proof: callers that shorten names
    /// keep the full key beside the value and probe further slots on a collision.
    package static func stableHash(_ key: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in canonicalForm(of: key).utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The first `maximumBytes` bytes of an encoded name, cut so no `^x` or `%hh` escape is split.
    package static func truncatedEncodedName(_ encoded: String, maximumBytes: Int) -> String {
        let bytes = Array(encoded.utf8)
        guard bytes.count > maximumBytes else { return encoded }
        var end = 0
        var index = 0
        while index < bytes.count {
            let width = bytes[index] == UInt8(ascii: "%") ? 3 : (bytes[index] == UInt8(ascii: "^") ? 2 : 1)
            if index + width > maximumBytes { break }
            index += width
            end = index
        }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// `bytes` as lowercase hex digits, two per byte.
    package static func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes { appendHex(byte, to: &output) }
        return String(decoding: output, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func appendHex(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0x0F)])
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
