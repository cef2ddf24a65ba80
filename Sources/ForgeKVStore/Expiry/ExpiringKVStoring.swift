public import Foundation

/// A ``KVStoring`` whose values can have a lifetime: once a value's expiration date has come, by the clock the store
/// was given (``KVExpiry``), it reads as missing everywhere: `get`, `value(for:)`, `contains`, `keys()`, and the
/// streams of a ``ReactiveKVStore`` over the store, which emit nil.
///
/// ``InMemoryKVStore``, ``DiskKVStore``, and the SQLite and PostgreSQL key-value stores keep lifetimes, and expire
/// values alike; a store built on ``KVBackend`` that keeps ``KVStoredValue/expiresAt`` and gives its backend an
/// `expiry` declares this protocol and gets every requirement from the library. A store that declares it with no
/// `expiry` fails loudly at its first write with a lifetime, rather than keep a value that never expires: see
/// `set(_:value:lifetime:)`. The space of expired values is reclaimed by the store's writes and by an
/// ``ExpiryReaper`` (see ``KVExpiry``).
///
/// ```swift
/// try sessions.set(SessionKeys.token(for: user), value: token, expiresAfter: .seconds(3600))
/// ```
public protocol ExpiringKVStoring: KVStoring {
    /// How the store keeps values with a lifetime: its clock, and how its writes reclaim expired values.
    var expiry: KVExpiry? { get }

    /// Encodes `value` and stores it under `key`'s name with `lifetime`.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` or ``KVStoreError/writeFailed(key:underlying:)``;
    ///   the previous value is kept either way.
    func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T, lifetime: KVLifetime) throws

    /// Encodes `value` and stores it under `key`'s name, to expire `lifetime` from now: `lifetime: .after(lifetime)`.
    ///
    /// A requirement with a default, so that a store that is also ``AsyncExpiringKVStoring`` has one method of this
    /// name, called without `await` in an `async` function too.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` or ``KVStoreError/writeFailed(key:underlying:)``.
    func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T, expiresAfter lifetime: Duration) throws

    /// When the value of `key` expires: nil when it has no lifetime, or when no value is stored under the key's name.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)``.
    func expirationDate<T: Codable & Sendable>(of key: KVKey<T>) throws -> Date?

    /// How long the value of `key` has left before it expires, by the store's clock, in whole milliseconds rounded
    /// down: nil when it has no lifetime or nothing is stored under the key's name; zero at the last.
    ///
    /// A requirement with a default, so that a store that is also ``AsyncExpiringKVStoring`` has one method of this
    /// name, called without `await` in an `async` function too.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)``.
    func remainingLifetime<T: Codable & Sendable>(of key: KVKey<T>) throws -> Duration?

    /// Encodes `value` and stores it under `key`'s name with `lifetime`, unless that name holds a value that has not
    /// expired; returns whether it stored it.
    ///
    /// The check and the write are one step of the store's storage: of callers that set one key at once, through any
    /// instances or processes on one storage, exactly one stores its value and the others get false. What makes a
    /// session's identifier, a lock's holder or a job's claim unique:
    ///
    /// ```swift
    /// guard try sessions.setIfAbsent(SessionKeys.session(id), value: session, lifetime: .after(.seconds(3600)))
    /// else { throw SessionError.idTaken }
    /// ```
    ///
    /// Only the key's own name is looked at, not the older names its migrations read. ``KVLifetime/unchanged`` stores
    /// a value that never expires (there is no value whose lifetime it would keep). A value that has expired, by the
    /// store's clock, is replaced; one that has not is kept, even one that does not decode as `T`. A write in a
    /// `StorageTransaction` is not conditional; call this outside one.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` or ``KVStoreError/writeFailed(key:underlying:)``;
    ///   what was stored is kept either way.
    @discardableResult
    func setIfAbsent<T: Codable & Sendable>(_ key: KVKey<T>, value: T, lifetime: KVLifetime) throws -> Bool

    /// Removes up to `limit` values that have expired, now, and returns how many it removed; a `limit` of 0 or less
    /// removes nothing and returns 0. Reads never return an expired value whether or not it is reclaimed; this frees
    /// its space.
    ///
    /// - Throws: ``KVStoreError/removeFailed(key:underlying:)`` or ``KVStoreError/listFailed(underlying:)``.
    func reclaimExpiredValues(limit: Int) throws -> Int
}

extension ExpiringKVStoring {
    /// Encodes `value` and stores it under `key`'s name, to expire `lifetime` from now.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` or ``KVStoreError/writeFailed(key:underlying:)``.
    public func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T, expiresAfter lifetime: Duration) throws {
        try set(key, value: value, lifetime: .after(lifetime))
    }

    /// The time from now, by the store's clock, to ``expirationDate(of:)``, in whole milliseconds rounded down.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)``.
    public func remainingLifetime<T: Codable & Sendable>(of key: KVKey<T>) throws -> Duration? {
        try expirationDate(of: key).map { KVExpiry.remainingLifetime(until: $0, clock: expiry?.clock) }
    }

    /// Throws ``KVStoreError/writeFailed(key:underlying:)``, storing nothing: a store that is not built on
    /// ``KVBackend`` implements it, as one step of its storage.
    @discardableResult
    public func setIfAbsent<T: Codable & Sendable>(_ key: KVKey<T>, value: T, lifetime: KVLifetime) throws -> Bool {
        throw KVStoreError.cannotStoreIfAbsent(key.key)
    }
}

extension AsyncExpiringKVStoring where Self: AsyncKVBackend {
    /// The time from now, by the store's clock, to ``expirationDate(of:)``, in whole milliseconds rounded down.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)``.
    public func remainingLifetime<T: Codable & Sendable>(of key: KVKey<T>) async throws -> Duration? {
        try await expirationDate(of: key).map { KVExpiry.remainingLifetime(until: $0, clock: expiry?.clock) }
    }
}

/// The asynchronous form of ``ExpiringKVStoring``, for stores behind a network (PostgreSQL) and for services written
/// against ``AsyncKVStoring``.
public protocol AsyncExpiringKVStoring: AsyncKVStoring {
    /// How the store keeps values with a lifetime: its clock, and how its writes reclaim expired values.
    var expiry: KVExpiry? { get }

    /// Encodes `value` and stores it under `key`'s name with `lifetime`.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` or ``KVStoreError/writeFailed(key:underlying:)``.
    func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T, lifetime: KVLifetime) async throws

    /// Encodes `value` and stores it under `key`'s name, to expire `lifetime` from now: `lifetime: .after(lifetime)`.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` or ``KVStoreError/writeFailed(key:underlying:)``.
    func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T, expiresAfter lifetime: Duration) async throws

    /// When the value of `key` expires: nil when it has no lifetime, or when no value is stored under the key's name.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)``.
    func expirationDate<T: Codable & Sendable>(of key: KVKey<T>) async throws -> Date?

    /// How long the value of `key` has left before it expires, by the store's clock, in whole milliseconds rounded
    /// down: nil when it has no lifetime or nothing is stored under the key's name.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)``.
    func remainingLifetime<T: Codable & Sendable>(of key: KVKey<T>) async throws -> Duration?

    /// Encodes `value` and stores it under `key`'s name with `lifetime`, unless that name holds a value that has not
    /// expired, in one step of the store's storage; returns whether it stored it: see
    /// ``ExpiringKVStoring/setIfAbsent(_:value:lifetime:)``.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` or ``KVStoreError/writeFailed(key:underlying:)``.
    @discardableResult
    func setIfAbsent<T: Codable & Sendable>(_ key: KVKey<T>, value: T, lifetime: KVLifetime) async throws -> Bool

    /// Removes up to `limit` values that have expired, now, and returns how many it removed; a `limit` of 0 or less
    /// removes nothing and returns 0.
    ///
    /// - Throws: ``KVStoreError/removeFailed(key:underlying:)`` or ``KVStoreError/listFailed(underlying:)``.
    func reclaimExpiredValues(limit: Int) async throws -> Int
}

extension AsyncExpiringKVStoring where Self: AsyncKVBackend {
    /// Encodes `value` and stores it under `key`'s name, to expire `lifetime` from now.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` or ``KVStoreError/writeFailed(key:underlying:)``.
    public func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T, expiresAfter lifetime: Duration) async throws {
        try await set(key, value: value, lifetime: .after(lifetime))
    }
}
