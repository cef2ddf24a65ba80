internal import ForgeCore
internal import Foundation

/// The JSON helpers of ``FileStoring`` and ``AsyncFileStoring``, written once: each protocol's `saveJSON`,
/// `loadJSON` and `loadJSONIfExists` is one call here with its own `save` or `load`.
enum FileJSON {
    /// `value` as JSON, as every store saves it: the key-value stores' encoder, with sorted keys, so that a value is
    /// always saved as the same bytes.
    ///
    /// - Throws: ``FileStoreError/encodingFailed(path:underlying:)`` naming `path`.
    static func encode<Value: Encodable>(_ value: Value, for path: String) throws(FileStoreError) -> Data {
        do {
            return try JSONCodec.encode(value)
        } catch {
            throw FileStoreError.encodingFailed(path: path, underlying: String(describing: error))
        }
    }

    /// A `Value` decoded from `data`, the contents of `path`.
    ///
    /// - Throws: ``FileStoreError/decodingFailed(path:underlying:)`` naming `path`.
    static func decode<Value: Decodable>(_ type: Value.Type, from data: Data, at path: String) throws(FileStoreError)
        -> Value
    {
        do {
            return try JSONCodec.decode(Value.self, from: data)
        } catch {
            throw FileStoreError.decodingFailed(path: path, underlying: String(describing: error))
        }
    }

    /// A `Value` decoded from what `load` returns for `path`, or nil when it throws
    /// ``FileStoreError/notFound(path:)``.
    ///
    /// Decoded as `Value`, not as the `Value?` returned: a file holding `null` is not a `Value`. A file that is there
    /// but does not decode is an error, never nil: a damaged file is never mistaken for a missing one.
    ///
    /// - Throws: ``FileStoreError/decodingFailed(path:underlying:)``, or what `load` throws but `notFound`.
    static nonisolated(nonsending) func decodeIfFound<Value: Decodable>(
        _ type: Value.Type,
        at path: String,
        load: nonisolated(nonsending) () async throws -> Data
    ) async throws -> Value? {
        let data: Data
        do {
            data = try await load()
        } catch FileStoreError.notFound {
            return nil
        }
        return try decode(type, from: data, at: path)
    }
}
