/// The reads and writes of a ``KVKeyWithDefault``, written once for every ``KVStoring`` store over the requirements
/// that take its ``KVKeyWithDefault/withoutDefault`` key.
///
/// A store that is also ``AsyncKVStoring`` meets that protocol's requirements of the same names with these methods,
/// so it has one `get` of a key with a default, called without `await` in an `async` function too.
extension KVStoring {
    /// Returns the value stored for `key`, or its default when nothing is stored or what is stored does not decode
    /// as `T`, even through the key's migrations.
    ///
    /// ```swift
    /// if !settings.get(TaskKeys.onboarding) { showOnboarding() }   // false until a value is stored
    /// ```
    ///
    /// It reads through the key without its default with `get(_:)`, so a store made by
    /// `reportingDecodingFailures(to:)` reports a value that does not decode before the default is returned. Use
    /// `contains(_:)` or `value(for:)` to tell a stored value from the default.
    public func get<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) -> T {
        get(key.withoutDefault) ?? key.defaultValue
    }

    /// Returns the value stored for `key`, read as a `T` or migrated from what an older version stored; nil when
    /// nothing is stored, whatever the key's default.
    ///
    /// - Throws: ``KVStoreError/decodingFailed(key:underlying:)`` when what is stored does not decode as `T` and no
    ///   migration reads it, or ``KVStoreError/readFailed(key:underlying:)`` when the store cannot read it.
    public func value<T: Codable & Sendable>(for key: KVKeyWithDefault<T>) throws -> T? {
        try value(for: key.withoutDefault)
    }

    /// Stores `value` for `key`, replacing any previous value; a value equal to the default is stored too.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` or ``KVStoreError/writeFailed(key:underlying:)``;
    ///   the previous value is kept either way.
    public func set<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>, value: T) throws {
        try set(key.withoutDefault, value: value)
    }

    /// Removes the value stored for `key`, and those under the older names its migrations read, so that reads
    /// return its default again.
    ///
    /// - Throws: ``KVStoreError/removeFailed(key:underlying:)``.
    public func remove<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) throws {
        try remove(key.withoutDefault)
    }

    /// Returns true when a value is stored for `key` (or under an older name its migrations read), even one equal
    /// to its default; false when reads return the default because nothing is stored.
    public func contains<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) -> Bool {
        contains(key.withoutDefault)
    }
}
