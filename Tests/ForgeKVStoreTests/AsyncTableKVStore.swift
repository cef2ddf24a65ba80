import ForgeKVStore
import Foundation

/// An asynchronous key-value store as a user writes one for a server: the requirements of ``AsyncKVBackend`` over
/// the table ``TableKVStore`` uses, and nothing else; `AsyncTableKVStoreTests` holds it to the asynchronous suite.
struct AsyncTableKVStore: AsyncKVStoring, AsyncKVBackend {
    let table: TableKVStore.Table
    let namespace: String
    /// Thrown by every read when set, as a dropped connection would be.
    var readFailure: KVStoreError?

    func storedValues(named names: [String]) async throws -> [String: KVStoredValue] {
        if let readFailure { throw readFailure }
        let rows = table.withRows { $0[namespace] ?? [:] }
        var values: [String: KVStoredValue] = [:]
        for name in names { values[name] = rows[name].map(KVStoredValue.init(json:)) }
        return values
    }

    func store(_ value: KVStoredValue, named name: String) async throws {
        let json = value.json
        table.withRows { $0[namespace, default: [:]][name] = json }
    }

    func removeValues(named names: [String]) async throws {
        table.withRows { rows in for name in names { rows[namespace]?.removeValue(forKey: name) } }
    }

    func storedNames() async throws -> [String] {
        table.withRows { Array(($0[namespace] ?? [:]).keys) }
    }

    func removeAll() async throws {
        table.withRows { $0[namespace] = nil }
    }
}
