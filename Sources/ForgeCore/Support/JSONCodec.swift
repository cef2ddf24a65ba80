package import Foundation

/// The one JSON encoder and decoder every store uses, so a value reads back the same from each of them.
///
/// Keys are sorted, so a value always encodes to the same bytes; dates use Foundation's default
/// (seconds since 2001 as a number), which keeps their full precision.
package enum JSONCodec {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private static let decoder = JSONDecoder()

    /// Encodes `value` as JSON.
    package static func encode<Value: Encodable>(_ value: Value) throws -> Data {
        try encoder.encode(value)
    }

    /// Decodes a `Value` from JSON.
    package static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        try decoder.decode(type, from: data)
    }
}
