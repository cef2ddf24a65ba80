internal import ForgeCrypt
internal import Foundation

// The values the conformance suites store: shapes apps store, and keys a careless caller might pass.

/// A Codable struct with nested values, as settings often are.
struct TaskSettings: Codable, Sendable, Equatable {
    var theme: String
    var fontSize: Double
    var tags: [String]
    var reminder: Date?
}

/// A Codable enum with associated values.
enum SortOrder: Codable, Sendable, Equatable {
    case manual
    case byDate(ascending: Bool)
}

/// A value whose encoding always fails, as a value with a bug in `encode(to:)` would.
struct Unencodable: Codable, Sendable, Equatable {
    struct Refused: Error {}

    init() {}
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws { throw Refused() }
}

/// Keys a careless or hostile caller might pass.
let hostileKeys: [String] = [
    "../x", "../../etc/passwd", "/etc/passwd", "", ".", "..", ".hidden", "a/b/c", "a\\b", "nul\u{0}byte",
    "tab\tnew\nline", String(repeating: "k", count: 600), String(repeating: "🔥", count: 600), "emoji 🔥 key",
    "Case", "case", "CASE", "é", "É", "ß", "SS", "percent%41", "caret^a", "tilde~x", "~", "%", "^", "CON", "a:b*c?",
]

/// A Codable value with nesting, optionals and a date, as apps store credentials.
struct Credentials: Codable, Sendable, Equatable {
    var user: String
    var scopes: [String]
    var expiry: Date
    var refresh: String?
}

/// The secret keys the ``CryptStoringConformance`` checks use.
enum SuiteKeys {
    static let token = CryptKey<String>(key: "auth.access")
    static let refresh = CryptKey<String>(key: "auth.refresh")
    static let blob = CryptKey<Data>(key: "signing.key")
    static let credentials = CryptKey<Credentials>(key: "auth.credentials")
    static let number = CryptKey<Double>(key: "number")
}
