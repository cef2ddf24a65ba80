/// A typed name for one value in a key-value store.
///
/// The key pairs a string with the type stored under it, so reads and writes are checked by the compiler.
/// Group keys in an enum and give them dot-separated prefixes:
///
/// ```swift
/// enum TaskKeys {
///     static let onboarding = KVKey<Bool>("taskflow.onboarding")
///     static let projectName = KVKey<String?>("taskflow.projectName")
/// }
/// ```
///
/// There is no default value: ``KVStoring/get(_:)`` returns nil until a value is stored.
public struct KVKey<Value: Codable & Sendable>: Sendable, Equatable, Hashable {
    /// The string the value is stored under.
    public let key: String

    /// Creates a key that stores a `Value` under `key`.
    ///
    /// Any string is a valid key: disk stores turn it into a safe file name.
    public init(_ key: String) {
        self.key = key
    }
}

extension KVKey: CustomStringConvertible {
    /// The key's string and value type, for example `KVKey<Int>("taskflow.taskCount")`.
    public var description: String {
        "KVKey<\(Value.self)>(\"\(key)\")"
    }
}
