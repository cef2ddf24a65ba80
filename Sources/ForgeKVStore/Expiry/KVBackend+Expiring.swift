public import Foundation

/// The lifetimes of every store built on a ``KVBackend`` that keeps them, written once.
extension ExpiringKVStoring where Self: KVBackend {
    /// Encodes `value` and stores it under `key`'s name with `lifetime`, by the store's clock.
    ///
    /// A value with a lifetime replaces the values of the older names the key's migrations read, which are removed
    /// after it is stored: once it expires, the key reads as missing, never as an older value.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)``, ``KVStoreError/writeFailed(key:underlying:)``,
    ///   ``KVStoreError/removeFailed(key:underlying:)`` of an older name, or for ``KVLifetime/unchanged`` the
    ///   ``KVStoreError/readFailed(key:underlying:)`` of reading the old lifetime; the previous value is kept when the
    ///   write fails. A store whose `expiry` is nil keeps no lifetimes: a write with one fails loudly there, with
    ///   `writeFailed` and `FailureReason.other`, before anything is written.
    public func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T, lifetime: KVLifetime) throws {
        let encoded = try KVStoredValue(encoding: value, key: key.key)
        try lifetime.refuseWithoutExpiry(expiry, key: key.key)
        let expiresAt: Date? =
            switch lifetime {
            // The lifetime of the value the key reads: under its own name, or else the first older name that holds one.
            case .unchanged: try key.storedNames.lazy.compactMap { try self.liveValue(named: $0) }.first?.expiresAt
            default: try lifetime.expirationDateOfNewValue(by: settings, key: key.key)
            }
        try store(encoded.expiring(at: expiresAt), named: key.key)
        try didStore(key, expiringAt: expiresAt)
    }

    /// Encodes `value` and stores it under `key`'s name with `lifetime`, unless the name holds a value that has not
    /// expired by the store's clock, in one step of the backend (``KVBackend/storeIfAbsent(_:named:liveAt:)``).
    ///
    /// A value stored with a lifetime removes the older names of the key afterwards, as ``set(_:value:lifetime:)``'s
    /// does.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)``, ``KVStoreError/writeFailed(key:underlying:)``, or
    ///   ``KVStoreError/removeFailed(key:underlying:)`` of an older name.
    @discardableResult
    public func setIfAbsent<T: Codable & Sendable>(_ key: KVKey<T>, value: T, lifetime: KVLifetime) throws -> Bool {
        let encoded = try KVStoredValue(encoding: value, key: key.key)
        try lifetime.refuseWithoutExpiry(expiry, key: key.key)
        let expiresAt = try lifetime.expirationDateOfNewValue(by: settings, key: key.key)
        let stored = encoded.expiring(at: expiresAt)
        guard try storeIfAbsent(stored, named: key.key, liveAt: settings.clock.now) else { return false }
        try didStore(key, expiringAt: expiresAt)
        return true
    }

    /// What follows a write of `key`'s value expiring at `expiresAt`: with a lifetime, the older names go (once the
    /// value expires, no older value is read in its place, as `remove` removes them) and the expiry notes the date;
    /// then a reclaim, when one is due.
    private func didStore<T>(_ key: KVKey<T>, expiringAt expiresAt: Date?) throws {
        if let expiresAt {
            for name in key.storedNames.dropFirst().reversed() { try removeValue(named: name) }
            settings.noteStored(expiringAt: expiresAt)
        }
        reclaimExpiredValuesIfDue()
    }

    /// When the value of `key` expires; nil when it has no lifetime or nothing is stored under the key's name.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)``.
    public func expirationDate<T: Codable & Sendable>(of key: KVKey<T>) throws -> Date? {
        try liveValue(named: key.key)?.expiresAt
    }

    /// Removes up to `limit` values that have expired by the store's clock; returns how many.
    ///
    /// A `limit` of 0 or less removes nothing and returns 0.
    ///
    /// - Throws: ``KVStoreError/removeFailed(key:underlying:)`` or ``KVStoreError/listFailed(underlying:)``.
    public func reclaimExpiredValues(limit: Int) throws -> Int {
        // The backend is asked even for 0, so that the expiry suite checks that each one honours the limit; a
        // negative limit reaches it as 0 (SQLite reads a negative LIMIT as none).
        try removeExpiredValues(at: settings.clock.now, limit: max(0, limit)).count
    }

    /// The store's expiry settings; the system clock's defaults for a store that gives none.
    private var settings: KVExpiry {
        expiry ?? KVExpiry()
    }
}

/// The lifetimes of every store built on an ``AsyncKVBackend`` that keeps them, written once.
extension AsyncExpiringKVStoring where Self: AsyncKVBackend {
    /// Encodes `value` and stores it under `key`'s name with `lifetime`, by the store's clock.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)``, ``KVStoreError/writeFailed(key:underlying:)``, or
    ///   for ``KVLifetime/unchanged`` the ``KVStoreError/readFailed(key:underlying:)`` of reading the old lifetime.
    public func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T, lifetime: KVLifetime) async throws {
        let encoded = try KVStoredValue(encoding: value, key: key.key)
        try lifetime.refuseWithoutExpiry(expiry, key: key.key)
        let expiresAt: Date? =
            switch lifetime {
            case .unchanged:
                try await liveValues(named: key.storedNames).firstValue(in: key.storedNames)?.expiresAt
            default: try lifetime.expirationDateOfNewValue(by: settings, key: key.key)
            }
        try await store(encoded.expiring(at: expiresAt), named: key.key)
        try await didStore(key, expiringAt: expiresAt)
    }

    /// Encodes `value` and stores it under `key`'s name with `lifetime`, unless the name holds a value that has not
    /// expired by the store's clock, in one step of the backend (``AsyncKVBackend/storeIfAbsent(_:named:liveAt:)``).
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)``, ``KVStoreError/writeFailed(key:underlying:)``, or
    ///   ``KVStoreError/removeFailed(key:underlying:)`` of an older name.
    @discardableResult
    public func setIfAbsent<T: Codable & Sendable>(
        _ key: KVKey<T>,
        value: T,
        lifetime: KVLifetime
    ) async throws -> Bool {
        let encoded = try KVStoredValue(encoding: value, key: key.key)
        try lifetime.refuseWithoutExpiry(expiry, key: key.key)
        let expiresAt = try lifetime.expirationDateOfNewValue(by: settings, key: key.key)
        let stored = encoded.expiring(at: expiresAt)
        guard try await storeIfAbsent(stored, named: key.key, liveAt: settings.clock.now) else { return false }
        try await didStore(key, expiringAt: expiresAt)
        return true
    }

    /// What follows a write of `key`'s value expiring at `expiresAt`, as for a ``KVBackend``'s store.
    private func didStore<T>(_ key: KVKey<T>, expiringAt expiresAt: Date?) async throws {
        if let expiresAt {
            let olderNames = Array(key.storedNames.dropFirst().reversed())
            if !olderNames.isEmpty { try await removeValues(named: olderNames) }
            settings.noteStored(expiringAt: expiresAt)
        }
        await reclaimExpiredValuesIfDue()
    }

    /// When the value of `key` expires; nil when it has no lifetime or nothing is stored under the key's name.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)``.
    public func expirationDate<T: Codable & Sendable>(of key: KVKey<T>) async throws -> Date? {
        try await liveValues(named: [key.key])[key.key]?.expiresAt
    }

    /// Removes up to `limit` values that have expired by the store's clock; returns how many.
    ///
    /// A `limit` of 0 or less removes nothing and returns 0.
    ///
    /// - Throws: ``KVStoreError/removeFailed(key:underlying:)`` or ``KVStoreError/listFailed(underlying:)``.
    public func reclaimExpiredValues(limit: Int) async throws -> Int {
        try await removeExpiredValues(at: settings.clock.now, limit: max(0, limit)).count
    }

    /// The store's expiry settings; the system clock's defaults for a store that gives none.
    private var settings: KVExpiry {
        expiry ?? KVExpiry()
    }
}

extension KVLifetime {
    /// Throws, before anything is written, for a lifetime that sets a date on a store that keeps no lifetimes
    /// (`expiry` nil): declaring ``ExpiringKVStoring`` on such a store fails loudly at its first write with a lifetime
    /// rather than store a value that never expires.
    ///
    /// - Throws: ``KVStoreError/writeFailed(key:underlying:)`` naming `key`.
    func refuseWithoutExpiry(_ expiry: KVExpiry?, key: String) throws {
        switch self {
        case .after, .until: if expiry == nil { throw KVExpiry.lifetimeNotKept(key) }
        case .forever, .unchanged: return
        }
    }

    /// The expiration date of a value written now with this lifetime, by `expiry`'s clock: nil for ``forever``, and
    /// for ``unchanged``, whose date is the old value's, which the caller reads.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` naming `key` for a date that is not a number.
    func expirationDateOfNewValue(by expiry: KVExpiry, key: String) throws(KVStoreError) -> Date? {
        switch self {
        case .forever, .unchanged: nil
        case .after(let duration): expiry.expirationDate(after: duration)
        case .until(let date): try Self.checked(date, for: key)
        }
    }

    /// `date`, unless it is not a number (`Date(timeIntervalSince1970: .nan)`), which no store can keep.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` naming `key`.
    static func checked(_ date: Date, for key: String) throws(KVStoreError) -> Date {
        guard !date.timeIntervalSince1970.isNaN else {
            throw KVStoreError.encodingFailed(key: key, underlying: "the lifetime ends at a date that is not a number")
        }
        return date
    }
}

extension Dictionary where Key == String, Value == KVStoredValue {
    /// The value of the first of `names` that holds one.
    fileprivate func firstValue(in names: [String]) -> KVStoredValue? {
        names.lazy.compactMap { self[$0] }.first
    }
}
