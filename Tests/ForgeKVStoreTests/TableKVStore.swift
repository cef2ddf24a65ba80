import ForgeKVStore
import Foundation

/// A key-value store as a user writes one: the requirements of ``KVBackend`` that have no default, and nothing else.
///
/// It keeps its values in a table that namespaces share, as a database table would be shared. Typed keys, the codec, migrations, `value(for:)`, `keys()`,
/// decoding-failure reports and streams come from the library; `TableKVStoreTests` holds it to the whole
/// conformance suite.
struct TableKVStore: KVStoring, KVBackend {
    /// The rows of every namespace: namespace, then name, then the value's JSON.
    final class Table: @unchecked Sendable {
        // Safe to share: `rows` is read and written only under `lock`.
        private let lock = NSLock()
        private var rows: [String: [String: Data]] = [:]

        func withRows<Result>(_ body: (inout [String: [String: Data]]) -> Result) -> Result {
            lock.withLock { body(&rows) }
        }
    }

    let table: Table
    let namespace: String

    func storedValue(named name: String) -> KVStoredValue? {
        table.withRows { $0[namespace]?[name] }.map(KVStoredValue.init(json:))
    }

    func store(_ value: KVStoredValue, named name: String) {
        let json = value.json
        table.withRows { $0[namespace, default: [:]][name] = json }
    }

    func removeValue(named name: String) {
        table.withRows { _ = $0[namespace]?.removeValue(forKey: name) }
    }

    func storedNames() -> [String] {
        table.withRows { Array(($0[namespace] ?? [:]).keys) }
    }

    func removeAll() {
        table.withRows { $0[namespace] = nil }
    }
}

extension TableKVStore: AsyncKVStoring {}
