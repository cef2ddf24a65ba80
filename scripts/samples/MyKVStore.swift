// The reader's own store in the conformance sample: here one that forwards to an in-memory store, so the
// conformance checks really run against a KVStoring implementation of this module.
import ForgeKVStore

final class MyKVStore: KVStoring {
    private let base = InMemoryKVStore()

    func get<T: Codable & Sendable>(_ key: KVKey<T>) -> T? { base.get(key) }
    func value<T: Codable & Sendable>(for key: KVKey<T>) throws -> T? { try base.value(for: key) }
    func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) throws { try base.set(key, value: value) }
    func remove<T: Codable & Sendable>(_ key: KVKey<T>) throws { try base.remove(key) }
    func contains<T: Codable & Sendable>(_ key: KVKey<T>) -> Bool { base.contains(key) }
    func removeAll() throws { try base.removeAll() }
    func keys() throws -> [String] { try base.keys() }
}
