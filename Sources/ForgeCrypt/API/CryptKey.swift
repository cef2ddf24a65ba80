/// A typed name for one secret: the string it is stored under and the type stored there.
///
/// Group keys in an enum and give them dot-separated prefixes:
///
/// ```swift
/// enum AuthKeys {
///     static let accessToken = CryptKey<String>(key: "auth.access")
///     static let signingKey = CryptKey<Data>("auth.signing-key")   // the same, written as a `KVKey` is
/// }
/// ```
///
/// Any string is a valid key: the vault never writes it to disk in the clear, and the Keychain stores it as
/// the item's account.
public struct CryptKey<Value: Codable & Sendable>: Sendable, Equatable, Hashable {
    /// The string the secret is stored under.
    public let key: String

    /// Creates a key that stores a `Value` under `key`.
    public init(key: String) {
        self.key = key
    }

    /// Creates a key that stores a `Value` under `key`, written without a label as a `KVKey` is:
    /// `CryptKey<String>("auth.access")` is `CryptKey<String>(key: "auth.access")`.
    public init(_ key: String) {
        self.init(key: key)
    }
}

extension CryptKey: CustomStringConvertible {
    /// The key's string and value type, for example `CryptKey<String>("auth.access")`.
    public var description: String {
        "CryptKey<\(Value.self)>(\"\(key)\")"
    }
}
