// A store a user writes against forgestorage-kvstore.md's "KVStoring.swift": its requirements and nothing else,
// over a dictionary behind a lock, with only what the reference documents (KVKey, KVStoreError).
import ForgeKVStore
import Foundation

/// A key-value store written from the reference alone: a dictionary of JSON behind a lock.
final class DictionaryKVStore: KVStoring, @unchecked Sendable {
    // Safe to share: `values` is read and written only with `lock` held.
    private let lock = NSLock()
    private var values: [String: Data] = [:]

    func get<T: Codable & Sendable>(_ key: KVKey<T>) -> T? {
        guard let data = lock.withLock({ values[key.key] }) else { return nil }
        return try? JSONDecoder().decode(T.self, from: data)
    }

    func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) throws {
        let data: Data
        do {
            data = try JSONEncoder().encode(value)
        } catch {
            throw KVStoreError.encodingFailed(key: key.key, underlying: "\(error)")
        }
        lock.withLock { values[key.key] = data }
    }

    func remove<T: Codable & Sendable>(_ key: KVKey<T>) throws {
        _ = lock.withLock { values.removeValue(forKey: key.key) }
    }

    func contains<T: Codable & Sendable>(_ key: KVKey<T>) -> Bool {
        lock.withLock { values[key.key] != nil }
    }

    func removeAll() throws {
        lock.withLock { values.removeAll() }
    }
}
