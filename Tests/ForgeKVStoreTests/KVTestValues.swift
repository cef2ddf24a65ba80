import Foundation

/// A Codable struct with nested values, as settings often are.
struct TaskSettings: Codable, Sendable, Equatable {
    var theme: String
    var fontSize: Double
    var tags: [String]
    var reminder: Date?
}

/// Keys a careless or hostile caller might pass.
let hostileKeys: [String] = [
    "../x", "../../etc/passwd", "/etc/passwd", "", ".", "..", ".hidden", "a/b/c", "a\\b", "nul\u{0}byte",
    "tab\tnew\nline", String(repeating: "k", count: 600), String(repeating: "🔥", count: 600), "emoji 🔥 key",
    "Case", "case", "CASE", "é", "É", "ß", "SS", "percent%41", "caret^a", "tilde~x", "~", "%", "^", "CON", "a:b*c?",
]
