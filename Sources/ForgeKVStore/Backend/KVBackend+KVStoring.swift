internal import ForgeCore
internal import Foundation

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
        return try liveValue(named: key.key)?.decode(T.self, name: key.key)
    }

    /// Encodes `value` and stores it under `key`'s name.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` or ``KVStoreError/writeFailed(key:underlying:)``;
    ///   the previous value is kept either way.
    public func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) throws {
        let stored = try KVStoredValue(encoding: value, key: key.key)
        try store(stored, named: key.key)
        reclaimExpiredValuesIfDue()
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
        key.storedNames.contains { hasLiveValue(named: $0) }
    }

    /// The keys that hold a value, sorted, each once in its canonical (NFC) form.
    ///
    /// - Throws: ``KVStoreError/listFailed(underlying:)``.
    public func keys() throws -> [String] {
        KeyListing.sorted(try liveNames())
    }
}

/// The expiry policy of every store built on a ``KVBackend``, written once: a value whose expiration date has come
/// by the store's clock is not there, whatever the storage still holds.
extension KVBackend {
    /// The value stored under `name`, unless it has expired by the store's clock.
    ///
    /// - Throws: What ``storedValue(named:)`` throws.
    func liveValue(named name: String) throws -> KVStoredValue? {
        guard let stored = try storedValue(named: name) else { return nil }
        guard let expiresAt = stored.expiresAt else { return stored }
        return expiresAt > (expiry?.clock.now ?? Date()) ? stored : nil
    }

    /// Whether `name` holds a value that has not expired; a store that keeps no lifetimes answers with
    /// ``hasValue(named:)``.
    func hasLiveValue(named name: String) -> Bool {
        guard let expiry else { return hasValue(named: name) }
        return hasValue(named: name, liveAt: expiry.clock.now)
    }

    /// The names that hold a value that has not expired.
    ///
    /// - Throws: ``KVStoreError/listFailed(underlying:)``.
    func liveNames() throws -> [String] {
        guard let expiry else { return try storedNames() }
        return try storedNames(liveAt: expiry.clock.now)
    }

    /// Reclaims up to the store's limit of expired values when a reclaim is due (see ``KVExpiry``).
    ///
    /// A write calls it once it has succeeded; a reclaim that fails is left for the next one, and never fails the
    /// write.
    func reclaimExpiredValuesIfDue() {
        guard let expiry, let date = expiry.takeDueReclaim() else { return }
        let removed = (try? removeExpiredValues(at: date, limit: expiry.reclaimLimit))?.count ?? 0
        expiry.reclaimed(removed, at: date)
    }
}

/// Streams over every store built on ``KVBackend`` that keeps lifetimes read a key's value and its expiration date in
/// one read, so that a ``ReactiveKVStore`` over one reads a key once per change.
extension ExpiringKVStoring where Self: KVBackend {
    /// The value of `key`, as `get` reads it, and when it expires: one read of `key`'s name for a key without
    /// migrations; `get`, then the earliest expiration date of its names, for one with them.
    func valueAndExpirationDate<T: Codable & Sendable>(of key: KVKey<T>) -> (value: T?, expiresAt: Date?) {
        guard !key.hasMigrations else {
            // The value may come from an older name: the stream wakes when the first of the names' values expires.
            let value = get(key)
            let earliest = key.storedNames.compactMap { (try? liveValue(named: $0)).flatMap { $0?.expiresAt } }.min()
            return (value, value == nil ? nil : earliest)
        }
        guard let stored = try? liveValue(named: key.key), let value = try? stored.decode(T.self, name: key.key) else {
            return (nil, nil)
        }
        return (value, stored.expiresAt)
    }
}
