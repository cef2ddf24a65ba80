import ForgeKVStore
import ForgeStorageTesting
import Foundation
import Testing

/// A store that declares `ExpiringKVStoring` on a backend with no `expiry` fails loudly at its first write with a
/// lifetime, in both forms, before anything is written, rather than keep a value that never expires.
struct LifetimesNotKeptTests {
    /// `WritingAStore`'s one-page store (it keeps each value's JSON only), declaring lifetimes it does not keep.
    private struct ClaimingStore: KVBackend, ExpiringKVStoring, AsyncExpiringKVStoring {
        let base = TableKVStore(table: TableKVStore.Table(), namespace: "store")
        let expiry: KVExpiry?

        func storedValue(named name: String) -> KVStoredValue? { base.storedValue(named: name) }
        func store(_ value: KVStoredValue, named name: String) { base.store(value, named: name) }
        func removeValue(named name: String) { base.removeValue(named: name) }
        func storedNames() -> [String] { base.storedNames() }
        func removeAll() { base.removeAll() }
    }

    /// The asynchronous form of the same store.
    private struct AsyncClaimingStore: AsyncKVBackend, AsyncExpiringKVStoring {
        let base = AsyncTableKVStore(table: TableKVStore.Table(), namespace: "store")
        let expiry: KVExpiry?

        func storedValues(named names: [String]) async throws -> [String: KVStoredValue] {
            try await base.storedValues(named: names)
        }
        func store(_ value: KVStoredValue, named name: String) async throws { try await base.store(value, named: name) }
        func removeValues(named names: [String]) async throws { try await base.removeValues(named: names) }
        func storedNames() async throws -> [String] { try await base.storedNames() }
        func removeAll() async throws { try await base.removeAll() }
    }

    private let token = KVKey<String>("token")

    /// Whether `error` is the loud failure of a write of `token` to a store that keeps no lifetimes.
    private func isLifetimeNotKept(_ error: any Error) -> Bool {
        guard case KVStoreError.writeFailed("token", .other(let reason)) = error else { return false }
        return reason.contains("lifetime")
    }

    @Test func aStoreWithoutExpiryRefusesALifetimeAndWritesNothing() async throws {
        let store = ClaimingStore(expiry: nil)
        try store.set(token, value: "old")
        #expect(
            performing: { try store.set(token, value: "new", expiresAfter: .seconds(60)) },
            throws: isLifetimeNotKept
        )
        #expect(store.get(token) == "old", "nothing is written")
        let asynchronous = AsyncClaimingStore(expiry: nil)
        await #expect(
            performing: { try await asynchronous.set(token, value: "new", lifetime: .until(.distantFuture)) },
            throws: isLifetimeNotKept
        )
        #expect(try await asynchronous.get(token) == nil)
        try store.set(token, value: "forever", lifetime: .forever)
        #expect(store.get(token) == "forever", "a write without a lifetime needs none")
    }
}
