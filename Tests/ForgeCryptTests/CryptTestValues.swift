import ForgeCrypt
import Foundation

/// A Codable value with nesting, optionals and a date, as apps store credentials.
struct Credentials: Codable, Sendable, Equatable {
    var user: String
    var scopes: [String]
    var expiry: Date
    var refresh: String?
}

/// Keys the vault tests store under.
enum SuiteKeys {
    static let credentials = CryptKey<Credentials>(key: "auth.credentials")
}
