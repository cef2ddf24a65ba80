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
