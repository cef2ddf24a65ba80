public import Foundation

/// The helpers of a store of both forms (``DiskFileStore``, ``InMemoryFileStore``, a ``FileBackend`` that declares
/// both protocols), spelled once: each is ``FileStoring``'s, which may run on the caller's executor.
///
/// ``FileStoring`` and ``AsyncFileStoring`` each have the helpers; without these, a call on a store of both forms
/// would name two methods and fail to compile.
extension FileStoring where Self: AsyncFileStoring {
    /// Saves `data` at `path`, replacing any file stored there.
    ///
    /// `FileStoring`'s `save(_:to:)`, the one spelling of it for a store of both forms.
    ///
    /// - Throws: See ``FileStoring/save(_:to:overwrite:)``.
    public nonisolated(nonsending) func save(_ data: Data, to path: String) async throws {
        try await save(data, to: path, overwrite: true)
    }

    /// Encodes `value` as JSON and saves it at `path`.
    ///
    /// `FileStoring`'s `saveJSON(_:to:overwrite:)`, the one spelling of it for a store of both forms.
    ///
    /// - Throws: ``FileStoreError/encodingFailed(path:underlying:)``, or any error of ``save(_:to:overwrite:)``.
    public nonisolated(nonsending) func saveJSON<Value: Encodable>(
        _ value: Value,
        to path: String,
        overwrite: Bool = true
    ) async throws {
        try await save(FileJSON.encode(value, for: path), to: path, overwrite: overwrite)
    }

    /// Loads the file at `path` and decodes it from JSON.
    ///
    /// `FileStoring`'s `loadJSON(_:as:)`, the one spelling of it for a store of both forms.
    ///
    /// - Throws: ``FileStoreError/decodingFailed(path:underlying:)``, or any error of ``load(_:)``.
    public nonisolated(nonsending) func loadJSON<Value: Decodable>(_ path: String, as type: Value.Type = Value.self)
        async throws
        -> Value
    {
        try FileJSON.decode(type, from: await load(path), at: path)
    }

    /// Loads the file at `path` and decodes it from JSON, or returns nil when no file is stored there.
    ///
    /// `FileStoring`'s `loadJSONIfExists(_:as:)`, the one spelling of it for a store of both forms.
    ///
    /// - Throws: ``FileStoreError/decodingFailed(path:underlying:)``, or any error of ``load(_:)`` but
    ///   ``FileStoreError/notFound(path:)``.
    public nonisolated(nonsending) func loadJSONIfExists<Value: Decodable>(
        _ path: String,
        as type: Value.Type = Value.self
    ) async throws
        -> Value?
    {
        try await FileJSON.decodeIfFound(type, at: path) { try await load(path) }
    }
}
