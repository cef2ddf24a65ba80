/// The names a careless store handles well: ASCII letters, digits, `.`, `_` and `-`, nothing else.
///
/// Two clear-all mutants (``KVMutant/removeAllRemovesOnlyPlainKeys`` and ``CryptMutant/deleteAllRemovesOnlyPlainNames``)
/// remove only such names, as a store that clears by a pattern, or that lists its folder and maps back only the file
/// names it did not have to escape.
enum PlainName {
    /// Whether every byte of `name` (its UTF-8) is an ASCII letter or digit, `.`, `_` or `-`.
    static func isPlain(_ name: some Sequence<UInt8>) -> Bool {
        name.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default: false
            }
        }
    }

    /// Whether every character of `name` is an ASCII letter or digit, `.`, `_` or `-`.
    static func isPlain(_ name: String) -> Bool {
        isPlain(name.utf8)
    }
}
