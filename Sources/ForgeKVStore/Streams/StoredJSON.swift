internal import Foundation

/// Any JSON value a store holds, whatever type wrote it.
///
/// A ``KVBinding`` observes its key as a `StoredJSON`, not as its own type, so that it is told of every change of
/// what the store holds. Its own type reads no value and a value that does not decode alike, as nil, and a stream of
/// that type skips a change from one to the other, which would leave the binding's `lastError` out of date.
///
/// Numbers are kept as `Decimal`, which holds every `Int64`, `UInt64` and `Double` the stores write exactly, so
/// two numbers that differ are never taken as one.
enum StoredJSON: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Decimal)
    case string(String)
    case array([StoredJSON])
    case object([String: StoredJSON])

    /// Decodes any JSON value; booleans are tried before numbers, so `true` stays a boolean.
    init(from decoder: any Decoder) throws {
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
    func encode(to encoder: any Encoder) throws {
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
