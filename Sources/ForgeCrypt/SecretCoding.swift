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
        // As in `decode`: `Value` is known to be `Data` or `String` here, so the bit casts are identity casts.
        if Value.self == Data.self { return unsafeBitCast(value, to: Data.self) }
        if Value.self == String.self { return Data(unsafeBitCast(value, to: String.self).utf8) }
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
        // `Value` is known to be `Data` or `String` here, so the bit casts are identity casts; `as? Value`
        // would do the same through a dynamic cast and an `Optional<Value>` metadata lookup on every read.
        if Value.self == Data.self { return unsafeBitCast(data, to: Value.self) }
        if Value.self == String.self {
            guard let string = data.withUnsafeBytes({ $0.withMemoryRebound(to: UInt8.self, utf8Text) }) else {
                throw .decodingFailed(key: key, underlying: "the stored bytes are not UTF-8 text")
            }
            return unsafeBitCast(string, to: Value.self)
        }
        do {
            return try JSONCodec.decode(Value.self, from: data)
        } catch {
            throw .decodingFailed(key: key, underlying: String(describing: error))
        }
    }

    /// The text whose UTF-8 is `bytes`, or nil when `bytes` is not UTF-8.
    ///
    /// `String(decoding:as:)` replaces every ill-formed sequence with U+FFFD, so the bytes decode to themselves
    /// exactly when they are well-formed. This takes about a third of the instructions of
    /// `String(validating:as:)`, which the standard library does not specialise for UTF-8 buffers.
    private static func utf8Text(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var text = String(decoding: bytes, as: UTF8.self)
        let isUnchanged = text.withUTF8 { decoded in
            guard decoded.count == bytes.count else { return false }
            guard let decodedStart = decoded.baseAddress, let start = bytes.baseAddress else { return true }
            return memcmp(decodedStart, start, bytes.count) == 0
        }
        return isUnchanged ? text : nil
    }
}
