internal import ForgeCore
internal import Foundation

/// How every ``CryptStoring`` turns a value into the bytes it protects, and back.
///
/// `Data` is stored as itself and `String` as its UTF-8, so Keychain items stay readable by other code
/// that stores plain strings and bytes; any other value is JSON from ForgeCore's shared codec. Sharing
/// this one coding is what makes ``InMemoryCrypt`` fail and succeed exactly where the other stores do.
enum SecretCoding {
    /// The bytes that represent `value`.
    static func encode<Value: Codable & Sendable>(_ value: Value, key: String) throws(CryptStoreError) -> Data {
        // The type is checked before the cast: a plain `as? Data` would also unwrap an `Optional<Data>`,
        // which is stored as JSON like any other value.
        if Value.self == Data.self, let data = value as? Data { return data }
        if Value.self == String.self, let string = value as? String { return Data(string.utf8) }
        do {
            return try JSONCodec.encode(value)
        } catch {
            throw .encodingFailed(key: key, underlying: String(describing: error))
        }
    }

    /// The value that `data` represents.
    ///
    /// - Throws: ``CryptStoreError/decodingFailed(key:underlying:)`` when `data` is not a `Value`.
    static func decode<Value: Codable & Sendable>(
        _ type: Value.Type,
        from data: Data,
        key: String
    ) throws(CryptStoreError) -> Value {
        if Value.self == Data.self, let value = data as? Value { return value }
        if Value.self == String.self {
            guard let text = utf8Text(data), let value = text as? Value else {
                throw .decodingFailed(key: key, underlying: "the stored bytes are not UTF-8 text")
            }
            return value
        }
        do {
            return try JSONCodec.decode(Value.self, from: data)
        } catch {
            throw .decodingFailed(key: key, underlying: String(describing: error))
        }
    }

    /// The text whose UTF-8 is `data`, or nil when `data` is not UTF-8.
    ///
    /// `String(decoding:as:)` replaces every ill-formed sequence with U+FFFD, so the bytes decode to themselves
    /// exactly when they are well-formed. Unlike `String(data:encoding:)`, this keeps a leading byte order mark
    /// as it is stored, on every platform.
    private static func utf8Text(_ data: Data) -> String? {
        let text = String(decoding: data, as: UTF8.self)
        // Compared as `Data` (one `memcmp`) rather than byte by byte through `Data`'s iterator, which took 4.6% of a
        // vault `get` (`vault.get` in Benchmarks, at 1.31x its limit against a 1.3x target).
        return Data(text.utf8) == data ? text : nil
    }
}
