import ForgeStorage
import Foundation

/// A key-value store as one is written for a server (`PostgresKVStore` is one): the requirements of `AsyncKVBackend`
/// over rows a lock guards, standing in for a database.
struct ServerKVStore: AsyncKVStoring, AsyncKVBackend {
    /// The server's rows, by name.
    final class Rows: @unchecked Sendable {
        // Safe to share: `values` is read and written only under `lock`.
        private let lock = NSLock()
        private var values: [String: Data] = [:]

        func withValues<Result>(_ body: (inout [String: Data]) -> Result) -> Result {
            lock.withLock { body(&values) }
        }
    }

    let rows = Rows()

    func storedValues(named names: [String]) async throws -> [String: KVStoredValue] {
        rows.withValues { values in
            var found: [String: KVStoredValue] = [:]
            for name in names { found[name] = values[name].map(KVStoredValue.init(json:)) }
            return found
        }
    }

    func store(_ value: KVStoredValue, named name: String) async throws {
        rows.withValues { $0[name] = value.json }
    }

    func removeValues(named names: [String]) async throws {
        rows.withValues { values in
            for name in names { values[name] = nil }
        }
    }

    func storedNames() async throws -> [String] {
        rows.withValues { Array($0.keys) }
    }

    func removeAll() async throws {
        rows.withValues { $0.removeAll() }
    }
}

/// The events a store told its handler, for a test to compare with what was made of them.
final class EventLog: @unchecked Sendable {
    // Safe to share: `events` is read and written only under `lock`.
    private let lock = NSLock()
    private var events: [StoreEvent] = []

    func append(_ event: StoreEvent) {
        lock.withLock { events.append(event) }
    }

    /// The calls reported, in order.
    var calls: [StoreEvent.Call] {
        lock.withLock {
            events.compactMap { event in
                guard case .call(let call) = event.kind else { return nil }
                return call
            }
        }
    }
}
