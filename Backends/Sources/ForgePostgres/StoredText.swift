internal import Foundation

/// How the stores keep a caller's string in a `text` column: in canonical (NFC) form, with `\` written `\\` and NUL
/// written `\0`, since PostgreSQL's `text` cannot hold a NUL and a key or namespace may be any string.
enum StoredText {
    /// `text` in its canonical (NFC) form.
    static func canonical(_ text: String) -> String {
        text.precomposedStringWithCanonicalMapping
    }

    /// `text` as a row stores it: canonical, with `\` written `\\` and NUL written `\0`.
    static func stored(_ text: String) -> String {
        var stored = ""
        for scalar in canonical(text).unicodeScalars {
            switch scalar {
            case "\\": stored += "\\\\"
            case "\0": stored += "\\0"
            default: stored.unicodeScalars.append(scalar)
            }
        }
        return stored
    }

    /// The text a row stores as `stored`, in canonical form; text that is not an escape the stores write is kept.
    static func text(fromStored stored: String) -> String {
        var text = ""
        var escaping = false
        for scalar in stored.unicodeScalars {
            if escaping {
                text.unicodeScalars.append(scalar == "0" ? "\0" : scalar)
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        if escaping { text += "\\" }
        return canonical(text)
    }
}
