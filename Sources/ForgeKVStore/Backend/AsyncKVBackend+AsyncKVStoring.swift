internal import ForgeCore
internal import Foundation

/// The typed API of every store built on an ``AsyncKVBackend``: the policy ``KVBackend``'s stores get, with one read
/// of all of a key's names.
extension AsyncKVStoring where Self: AsyncKVBackend {
    /// Returns the value stored for `key` or migrated from an older one, or nil when there is none or it does not
    /// decode as `T`.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)`` when the store cannot be read.
    public func get<T: Codable & Sendable>(_ key: KVKey<T>) async throws -> T? {
        do {
            return try await value(for: key)
        } catch KVStoreError.decodingFailed {
            return nil
        }
    }

    /// Returns the value stored for `key`, read as a `T` or migrated from what an older version stored; nil only
    /// when nothing is stored.
    ///
    /// - Throws: ``KVStoreError/decodingFailed(key:underlying:)`` or ``KVStoreError/readFailed(key:underlying:)``.
    public func value<T: Codable & Sendable>(for key: KVKey<T>) async throws -> T? {
        try await storedValues(of: key).value(for: key)
    }

    /// Encodes `value` and stores it under `key`'s name.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` or ``KVStoreError/writeFailed(key:underlying:)``;
    ///   the previous value is kept either way.
    public func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) async throws {
        let stored = try KVStoredValue(encoding: value, key: key.key)
        try await store(stored, named: key.key)
        await reclaimExpiredValuesIfDue()
    }

    /// Removes the value of `key` and those of its older names, the older names first.
    ///
    /// - Throws: ``KVStoreError/removeFailed(key:underlying:)``.
    public func remove<T: Codable & Sendable>(_ key: KVKey<T>) async throws {
        try await removeValues(named: key.storedNames.reversed())
    }

    /// Returns true when a value is stored under `key`'s name or an older name its migrations read.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)``.
    public func contains<T: Codable & Sendable>(_ key: KVKey<T>) async throws -> Bool {
        guard expiry != nil else { return try await hasValue(named: key.storedNames) }
        return try await !liveValues(named: key.storedNames).isEmpty
    }

    /// The keys that hold a value, sorted, each once in its canonical (NFC) form.
    ///
    /// - Throws: ``KVStoreError/listFailed(underlying:)``.
    public func keys() async throws -> [String] {
        guard let expiry else { return KeyListing.sorted(try await storedNames()) }
        return KeyListing.sorted(try await storedNames(liveAt: expiry.clock.now))
    }
}

extension AsyncKVBackend {
    /// The values stored under every name of `key`, for the typed API's one read policy.
    func storedValues<T>(of key: KVKey<T>) async throws -> FetchedValues {
        FetchedValues(values: try await liveValues(named: key.storedNames))
    }

    /// The values stored under `names` that have not expired by the store's clock.
    func liveValues(named names: [String]) async throws -> [String: KVStoredValue] {
        let values = try await storedValues(named: names)
        guard values.values.contains(where: { $0.expiresAt != nil }) else { return values }
        let now = expiry?.clock.now ?? Date()
        return values.filter { !$0.value.isExpired(at: now) }
    }

    /// Reclaims up to the store's limit of expired values when a reclaim is due (see ``KVExpiry``); a write calls it
    /// once it has succeeded, and a reclaim that fails never fails the write.
    func reclaimExpiredValuesIfDue() async {
        guard let expiry, let date = expiry.takeDueReclaim() else { return }
        let removed = (try? await removeExpiredValues(at: date, limit: expiry.reclaimLimit))?.count ?? 0
        expiry.reclaimed(removed, at: date)
    }
}
