import ForgeKVStore
import Foundation

/// A settings store on one page over a network, as a user writes one for a service behind an API: the requirements of
/// ``AsyncKVBackend`` without a default, each one request to a client, and a reclaim of what expired.
///
/// `OnePageAsyncKVStoreTests` holds it to the public suites (settings and lifetimes in the asynchronous form), alone
/// and seen through the seam for events and for faults.
struct OnePageAsyncKVStore: AsyncKVBackend, AsyncExpiringKVStoring {
    /// A fake of the service's client: the server's table behind an actor, which answers one request at a time.
    actor Client {
        private var values: [String: KVStoredValue] = [:]

        func values(named names: [String]) -> [String: KVStoredValue] { values.filter { names.contains($0.key) } }

        func put(_ value: KVStoredValue, named name: String) { values[name] = value }

        func putIfAbsent(_ value: KVStoredValue, named name: String, liveAt date: Date) -> Bool {
            if let stored = values[name], !stored.isExpired(at: date) { return false }
            values[name] = value
            return true
        }

        func delete(_ names: [String]) { for name in names { values[name] = nil } }

        func names() -> [String] { Array(values.keys) }

        func deleteAll() { values.removeAll() }

        func deleteExpired(at date: Date, limit: Int) -> [String] {
            let expired = values.filter { $0.value.isExpired(at: date) }.keys.prefix(max(0, limit))
            for name in expired { values[name] = nil }
            return Array(expired)
        }
    }

    let client: Client
    let expiry: KVExpiry?

    init(client: Client = Client(), expiry: KVExpiry? = nil) {
        self.client = client
        self.expiry = expiry
    }

    func storedValues(named names: [String]) async throws -> [String: KVStoredValue] {
        await client.values(named: names)
    }

    func store(_ value: KVStoredValue, named name: String) async throws { await client.put(value, named: name) }

    func storeIfAbsent(_ value: KVStoredValue, named name: String, liveAt date: Date) async throws -> Bool {
        await client.putIfAbsent(value, named: name, liveAt: date)
    }

    func removeValues(named names: [String]) async throws { await client.delete(names) }

    func storedNames() async throws -> [String] { await client.names() }

    func removeAll() async throws { await client.deleteAll() }

    func removeExpiredValues(at date: Date, limit: Int) async throws -> [String] {
        await client.deleteExpired(at: date, limit: limit)
    }
}
