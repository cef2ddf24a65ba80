internal import ForgeKVStore

/// A `KVStoring` seen as an `AsyncKVStoring`: each method calls the synchronous one of the same name.
///
/// It lets ``KVStoringConformance`` run the checks ``AsyncKVStoringConformance`` defines against any synchronous
/// store, one the user wrote that does not conform to `AsyncKVStoring` included, through its synchronous methods
/// (never through an asynchronous conformance the store may also have).
struct SynchronousKVStore: AsyncKVStoring {
    /// The store every call goes to.
    let base: any KVStoring

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
