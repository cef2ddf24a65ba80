public import Foundation
internal import ForgeCore

/// Any JSON value a store holds, whatever type wrote it.
///
/// A ``KVBinding`` observes its key as a `StoredJSON`, not as its own type, so that it is told of every change of
/// what the store holds. Its own type reads no value and a value that does not decode alike, as nil, and a stream of
/// that type skips a change from one to the other, which would leave the binding's `lastError` out of date.
///
/// Numbers are kept as `Decimal`, which holds every `Int64` and `UInt64`, and every `Double` the stores write whose
/// magnitude is between about 1e-128 and 1e165, exactly, so two numbers that differ are never taken as one. JSON that
/// holds a number outside that range does not decode as a `StoredJSON`.
///
/// It is also the key type for a value whose type is only `Encodable` or only `Decodable`, not `Codable & Sendable`,
/// as a framework's cache hands them over: the store keeps the value's own JSON, which a `KVKey` of its type reads.
///
/// ```swift
/// try await store.set(KVKey<StoredJSON>(key), value: StoredJSON(encoding: value))
/// let read = try await store.get(KVKey<StoredJSON>(key))?.decoded(as: Profile.self)
/// ```
public enum StoredJSON: Codable, Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Decimal)
    /// A string.
    case string(String)
    /// An array.
    case array([StoredJSON])
    /// An object.
    case object([String: StoredJSON])

    /// The JSON `value` encodes to, with the encoder the stores use.
    ///
    /// - Throws: The encoder's `EncodingError` when `value` cannot be encoded.
    public init(encoding value: some Encodable) throws {
        self = try JSONCodec.decode(StoredJSON.self, from: JSONCodec.encode(value))
    }

    /// The value of `type` this JSON decodes to, with the decoder the stores use.
    ///
    /// - Throws: The decoder's `DecodingError` when it does not decode as `type`.
    public func decoded<T: Decodable>(as type: T.Type) throws -> T {
        try JSONCodec.decode(type, from: JSONCodec.encode(self))
    }

    /// Decodes any JSON value; booleans are tried before numbers, so `true` stays a boolean.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Decimal.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([StoredJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: StoredJSON].self))
        }
    }

    /// Encodes the value as the JSON it was decoded from.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
