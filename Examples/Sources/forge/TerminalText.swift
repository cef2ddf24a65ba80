import Foundation

/// Telling whether bytes are safe to show on a terminal.
enum TerminalText {
    /// Whether `data` is UTF-8 text with no control characters but newlines, tabs and the carriage returns of
    /// `\r\n` line ends.
    ///
    /// Anything else (invalid UTF-8, an escape sequence, a NUL, a C1 control such as U+009B) could garble or
    /// reprogram the terminal it is written to.
    static func isPrintable(_ data: Data) -> Bool {
        // Decoding replaces invalid UTF-8 with U+FFFD, so only valid UTF-8 encodes back to the same bytes.
        let text = String(decoding: data, as: UTF8.self)
        guard Data(text.utf8) == data else { return false }
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() where scalar.properties.generalCategory == .control {
            let endsALine = scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n"
            guard scalar == "\n" || scalar == "\t" || endsALine else { return false }
        }
        return true
    }
}
