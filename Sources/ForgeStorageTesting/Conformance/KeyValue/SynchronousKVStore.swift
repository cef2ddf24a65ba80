internal import ForgeKVStore
internal import Foundation

/// A `KVStoring` seen as an `AsyncKVStoring`: each method calls the synchronous one of the same name.
///
/// It lets ``KVStoringConformance`` run the checks ``AsyncKVStoringConformance`` defines against any synchronous
/// store, one the user wrote that does not conform to `AsyncKVStoring` included, through its synchronous methods
/// (never through an asynchronous conformance the store may also have).
struct SynchronousKVStore: AsyncKVStoring {
    /// The store every call goes to.
    let base: any KVStoring
    /// The same store, when it keeps lifetimes.
    var expiring: (any ExpiringKVStoring)? { base as? any ExpiringKVStoring }

    init(_ base: any KVStoring) {
        self.base = base
    }

    func get<T: Codable & Sendable>(_ key: KVKey<T>) async throws -> T? { base.get(key) }

    func value<T: Codable & Sendable>(for key: KVKey<T>) async throws -> T? { try base.value(for: key) }

    func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) async throws { try base.set(key, value: value) }

    func remove<T: Codable & Sendable>(_ key: KVKey<T>) async throws { try base.remove(key) }

    func contains<T: Codable & Sendable>(_ key: KVKey<T>) async throws -> Bool { base.contains(key) }

    func removeAll() async throws { try base.removeAll() }

    func keys() async throws -> [String] { try base.keys() }

    func get<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws -> T { base.get(key) }

    func value<T: Codable & Sendable>(for key: KVKeyWithDefault<T>) async throws -> T? { try base.value(for: key) }

    func set<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>, value: T) async throws {
        try base.set(key, value: value)
    }

    func remove<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws { try base.remove(key) }

    func contains<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws -> Bool { base.contains(key) }
}

extension SynchronousKVStore: AsyncExpiringKVStoring {
    /// The wrapped store's expiry settings; nil when it keeps no lifetimes.
    var expiry: KVExpiry? { expiring?.expiry }

    func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T, lifetime: KVLifetime) async throws {
        try expiringBase().set(key, value: value, lifetime: lifetime)
    }

    func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T, expiresAfter lifetime: Duration) async throws {
        try expiringBase().set(key, value: value, expiresAfter: lifetime)
    }

    func expirationDate<T: Codable & Sendable>(of key: KVKey<T>) async throws -> Date? {
        try expiringBase().expirationDate(of: key)
    }

    func remainingLifetime<T: Codable & Sendable>(of key: KVKey<T>) async throws -> Duration? {
        try expiringBase().remainingLifetime(of: key)
    }

    func setIfAbsent<T: Codable & Sendable>(_ key: KVKey<T>, value: T, lifetime: KVLifetime) async throws -> Bool {
        try expiringBase().setIfAbsent(key, value: value, lifetime: lifetime)
    }

    func reclaimExpiredValues(limit: Int) async throws -> Int {
        try expiringBase().reclaimExpiredValues(limit: limit)
    }

    /// The wrapped store as one that keeps lifetimes.
    private func expiringBase() throws -> any ExpiringKVStoring {
        guard let expiring else {
            throw KVStoreError.writeFailed(key: "", underlying: .other("the store keeps no lifetimes"))
        }
        return expiring
    }
}
