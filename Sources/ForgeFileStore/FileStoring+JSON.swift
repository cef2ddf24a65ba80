internal import ForgeCore
internal import Foundation

extension FileStoring {
    /// Encodes `value` as JSON and saves it at `path`.
    ///
    /// Every store encodes with the same encoder as the key-value stores (sorted keys), so a value is
    /// always saved as the same bytes.
    ///
    /// ```swift
    /// try await store.saveJSON(profile, to: "profile.json")
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - path: The relative path of the file.
    ///   - overwrite: When false, the save fails if a file is already stored at `path`.
    /// - Throws: ``FileStoreError/encodingFailed(path:underlying:)`` when the value cannot be encoded (nothing
    ///   is written), or any error of ``save(_:to:overwrite:)``.
    public nonisolated(nonsending) func saveJSON<Value: Encodable>(
        _ value: Value,
        to path: String,
        overwrite: Bool = true
    ) async throws {
        let data: Data
        do {
            data = try JSONCodec.encode(value)
        } catch {
            throw FileStoreError.encodingFailed(path: path, underlying: String(describing: error))
        }
        try await save(data, to: path, overwrite: overwrite)
    }

    /// Loads the file at `path` and decodes it from JSON.
    ///
    /// ```swift
    /// let profile: UserProfile = try await store.loadJSON("profile.json")
    /// ```
    ///
    /// - Parameters:
    ///   - path: The relative path of the file.
    ///   - type: The type to decode; inferred from the context when omitted.
    /// - Returns: The decoded value.
    /// - Throws: ``FileStoreError/notFound(path:)`` when no file is stored there,
    ///   ``FileStoreError/decodingFailed(path:underlying:)`` when it is not JSON of `type`, or any error of
    ///   ``load(_:)``.
    public nonisolated(nonsending) func loadJSON<Value: Decodable>(_ path: String, as type: Value.Type = Value.self)
        async throws
        -> Value
    {
        try Self.decode(from: try await load(path), path: path)
    }

    /// Loads the file at `path` and decodes it from JSON, or returns nil when no file is stored there.
    ///
    /// A file that is there but cannot be decoded is an error, not nil: a corrupt file is never mistaken
    /// for a missing one.
    ///
    /// ```swift
    /// let draft: Draft? = try await store.loadJSONIfExists("drafts/current.json")
    /// ```
    ///
    /// - Parameters:
    ///   - path: The relative path of the file.
    ///   - type: The type to decode; inferred from the context when omitted.
    /// - Returns: The decoded value, or nil when no file is stored at `path`.
    /// - Throws: ``FileStoreError/decodingFailed(path:underlying:)`` when the file is not JSON of `type`, or
    ///   any error of ``load(_:)`` but ``FileStoreError/notFound(path:)``.
    public nonisolated(nonsending) func loadJSONIfExists<Value: Decodable>(
        _ path: String,
        as type: Value.Type = Value.self
    ) async throws
        -> Value?
    {
        let data: Data
        do {
            data = try await load(path)
        } catch FileStoreError.notFound {
            return nil
        }
        // Decoded as `Value`, not as the `Value?` returned: a file holding `null` is not a `Value`.
        let value: Value = try Self.decode(from: data, path: path)
        return value
    }

    /// Decodes a `Value` from `data`, the contents of `path`.
    private static func decode<Value: Decodable>(from data: Data, path: String) throws -> Value {
        do {
            return try JSONCodec.decode(Value.self, from: data)
        } catch {
            throw FileStoreError.decodingFailed(path: path, underlying: String(describing: error))
        }
    }
}
