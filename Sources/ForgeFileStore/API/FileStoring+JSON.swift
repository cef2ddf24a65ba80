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
        try await save(FileJSON.encode(value, for: path), to: path, overwrite: overwrite)
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
        try FileJSON.decode(type, from: await load(path), at: path)
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
        try await FileJSON.decodeIfFound(type, at: path) { try await load(path) }
    }
}
