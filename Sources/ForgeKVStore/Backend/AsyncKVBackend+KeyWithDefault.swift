/// The reads and writes of a ``KVKeyWithDefault`` of every store built on an ``AsyncKVBackend``, written once over the
/// typed requirements that take the key without its default; a store that is also ``KVStoring`` meets them with that
/// protocol's synchronous methods instead.
extension AsyncKVStoring where Self: AsyncKVBackend {
    /// Returns the value stored for `key`, or its default when nothing is stored or what is stored does not decode
    /// as `T`, even through the key's migrations.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)`` when the store cannot be read.
    public func get<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws -> T {
        try await get(key.withoutDefault) ?? key.defaultValue
    }

    /// Returns the value stored for `key`, read as a `T` or migrated from what an older version stored; nil when
    /// nothing is stored, whatever the key's default.
    ///
    /// - Throws: ``KVStoreError/decodingFailed(key:underlying:)`` or ``KVStoreError/readFailed(key:underlying:)``.
    public func value<T: Codable & Sendable>(for key: KVKeyWithDefault<T>) async throws -> T? {
        try await value(for: key.withoutDefault)
    }

    /// Stores `value` for `key`, replacing any previous value; a value equal to the default is stored too.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` or ``KVStoreError/writeFailed(key:underlying:)``;
    ///   the previous value is kept either way.
    public func set<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>, value: T) async throws {
        try await set(key.withoutDefault, value: value)
    }

    /// Removes the value stored for `key`, and those under the older names its migrations read, so that reads
    /// return its default again.
    ///
    /// - Throws: ``KVStoreError/removeFailed(key:underlying:)``.
    public func remove<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws {
        try await remove(key.withoutDefault)
    }

    /// Returns true when a value is stored for `key` (or under an older name its migrations read), even one equal
    /// to its default.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)`` when the store cannot be read.
    public func contains<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws -> Bool {
        try await contains(key.withoutDefault)
    }
}
