// The reader's own asynchronous-only store in the conformance sample: a stand-in for a network store, whose
// "tables" are in-memory stores and whose every call suspends, so the asynchronous checks really run against an
// AsyncKVStoring that conforms to nothing else.
import ForgeKVStore

struct MyNetworkKVStore: AsyncKVStoring {
    /// The server's table this handle reads and writes: two handles on one table see the same values.
    let table: InMemoryKVStore

    func get<T: Codable & Sendable>(_ key: KVKey<T>) async throws -> T? {
        await Task.yield()
        return table.get(key)
    }
    func value<T: Codable & Sendable>(for key: KVKey<T>) async throws -> T? {
        await Task.yield()
        return try table.value(for: key)
    }
    func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) async throws {
        await Task.yield()
        try table.set(key, value: value)
    }
    func remove<T: Codable & Sendable>(_ key: KVKey<T>) async throws {
        await Task.yield()
        try table.remove(key)
    }
    func contains<T: Codable & Sendable>(_ key: KVKey<T>) async throws -> Bool {
        await Task.yield()
        return table.contains(key)
    }
    func removeAll() async throws {
        await Task.yield()
        try table.removeAll()
    }
    func keys() async throws -> [String] {
        await Task.yield()
        return try table.keys()
    }

    // Keys with a default: each calls the requirement of the same name with the key without its default.
    func get<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws -> T {
        try await get(key.withoutDefault) ?? key.defaultValue
    }
    func value<T: Codable & Sendable>(for key: KVKeyWithDefault<T>) async throws -> T? {
        try await value(for: key.withoutDefault)
    }
    func set<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>, value: T) async throws {
        try await set(key.withoutDefault, value: value)
    }
    func remove<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws {
        try await remove(key.withoutDefault)
    }
    func contains<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws -> Bool {
        try await contains(key.withoutDefault)
    }
}
