internal import ForgeCore

/// The typed API of every store built on a ``KVBackend``, written once: a store that declares both protocols
/// implements only the backend's requirements.
extension KVStoring where Self: KVBackend {
    /// Returns the value stored for `key` or migrated from an older one, or nil when there is none or it does not
    /// decode as `T`.
    public func get<T: Codable & Sendable>(_ key: KVKey<T>) -> T? {
        try? value(for: key)
    }

    /// Returns the value stored for `key`, read as a `T` or migrated from what an older version stored; nil only
    /// when nothing is stored.
    ///
    /// - Throws: ``KVStoreError/decodingFailed(key:underlying:)`` or ``KVStoreError/readFailed(key:underlying:)``.
    public func value<T: Codable & Sendable>(for key: KVKey<T>) throws -> T? {
        // A key without migrations is its one plain read, which is what the migration policy returns for it; the
        // shortcut keeps an in-memory `get` within 3x of a locked dictionary's (`kv.memory.get` in Benchmarks).
        guard !key.hasMigrations else { return try BackendValues(backend: self).value(for: key) }
        return try storedValue(named: key.key)?.decode(T.self, name: key.key)
    }

    /// Encodes `value` and stores it under `key`'s name.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` or ``KVStoreError/writeFailed(key:underlying:)``;
    ///   the previous value is kept either way.
    public func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) throws {
        let stored = try KVStoredValue(encoding: value, key: key.key)
        try store(stored, named: key.key)
    }

    /// Removes the value of `key`, its older names first, so that a remove cut short never brings an older value
    /// back through a migration.
    ///
    /// - Throws: ``KVStoreError/removeFailed(key:underlying:)``.
    public func remove<T: Codable & Sendable>(_ key: KVKey<T>) throws {
        for name in key.storedNames.reversed() {
            try removeValue(named: name)
        }
    }

    /// Returns true when a value is stored under `key`'s name or an older name its migrations read.
    public func contains<T: Codable & Sendable>(_ key: KVKey<T>) -> Bool {
        key.storedNames.contains { hasValue(named: $0) }
    }

    /// The keys that hold a value, sorted, each once in its canonical (NFC) form.
    ///
    /// - Throws: ``KVStoreError/listFailed(underlying:)``.
    public func keys() throws -> [String] {
        KeyListing.sorted(try storedNames())
    }
}
