/// Generated hostile keys, paths and namespaces for property-style tests: separators, dots, control
/// characters, escapes, look-alike and canonically equivalent Unicode, names of the stores' own files, and
/// very long strings.
///
/// ```swift
/// var generator = SeededGenerator(seed: 1)
/// let key = HostileNames.string(using: &generator)
/// ```
package enum HostileNames {
    /// The pieces generated strings are made of.
    package static let pieces: [String] = [
        "", ".", "..", "...", "/", "//", "\\", "\u{0}", "\n", "\r", "\t", "\u{7F}", "\u{1B}", "~", "%",
        "%2e", "%2F", "%00", "^", "^a", " ", "a", "A", "b", "B", "z", "0", "-", "_", "é", "e\u{301}", "É",
        "🔥", "👩‍👩‍👧", "\u{202E}", "\u{FEFF}", "\u{200B}", "\u{FFFD}", "\u{10FFFF}", ":", "*", "?", "\"", "<",
        ">", "|", "CON", "nul", "ß", "ǅ", "İ", "ﬁ", ".forge-tmp-1-x", "vault.json", ".json", "json", "key",
        String(repeating: "x", count: 260), String(repeating: "é", count: 140),
    ]

    /// A string of 0 to `maximumPieces` random pieces.
    package static func string(using generator: inout SeededGenerator, maximumPieces: Int = 6) -> String {
        let count = Int.random(in: 0...maximumPieces, using: &generator)
        var result = ""
        for _ in 0..<count { result += pieces.randomElement(using: &generator) ?? "" }
        return result
    }

    /// A `/`-separated path of 1 to `maximumComponents` generated names; most are valid relative paths, some
    /// are not (empty names, `.`, `..`, a leading `/`, NUL, too long).
    package static func path(using generator: inout SeededGenerator, maximumComponents: Int = 4) -> String {
        let count = Int.random(in: 1...maximumComponents, using: &generator)
        var components: [String] = []
        for _ in 0..<count {
            // Mostly short, readable names, so that many paths share folders and collide on purpose.
            if Bool.random(using: &generator) {
                components.append(
                    ["a", "b", "A", "é", "e\u{301}", "docs", "x.txt"].randomElement(using: &generator) ?? "a"
                )
            } else {
                components.append(string(using: &generator, maximumPieces: 3))
            }
        }
        return components.joined(separator: "/")
    }
}
