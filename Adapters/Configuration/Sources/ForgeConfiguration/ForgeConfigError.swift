public import Configuration
public import Foundation

/// An error of ``ForgeConfigProvider``, naming the store key involved.
///
/// A failure to reach the store is the store's own error (a `KVStoreError` naming the key), thrown as it is by
/// ``ForgeConfigProvider/load()`` and `fetchValue(forKey:type:)`.
///
/// ```swift
/// do {
///     _ = try provider.value(forKey: ["features", "newCheckout"], type: .bool)
/// } catch let error as ForgeConfigError {
///     print(error.localizedDescription)
///     // The value stored under 'features.newCheckout' is a string, not a bool.
/// }
/// ```
public enum ForgeConfigError: LocalizedError, Sendable, Hashable {
    /// The value stored under `key` does not read as `type`; `stored` says what it is (never the value itself,
    /// which may be a secret). `key` is the store's name of the value, the prefix included.
    case valueNotConvertible(key: String, type: ConfigType, stored: String)

    /// The store key the error is about.
    public var key: String {
        switch self {
        case .valueNotConvertible(let key, _, _): key
        }
    }

    /// A readable sentence naming the key, what is stored and the type asked for.
    public var errorDescription: String? {
        switch self {
        case .valueNotConvertible(let key, let type, let stored):
            "The value stored under '\(key)' is \(stored), not \(type.readableName)."
        }
    }
}

extension ConfigType {
    /// The type as an error message names it.
    fileprivate var readableName: String {
        switch self {
        case .string: "a string"
        case .int: "an int"
        case .double: "a double"
        case .bool: "a bool"
        case .bytes: "bytes"
        case .stringArray: "an array of strings"
        case .intArray: "an array of ints"
        case .doubleArray: "an array of doubles"
        case .boolArray: "an array of bools"
        case .byteChunkArray: "an array of byte chunks"
        }
    }
}
