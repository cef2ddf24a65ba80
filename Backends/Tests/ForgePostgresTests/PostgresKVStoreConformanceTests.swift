import ForgeKVStore
import ForgePostgres
import ForgeStorageTesting
import Foundation
import Testing

/// The behaviour every key-value store shares (ForgeStorageTesting's asynchronous suite), run against
/// `PostgresKVStore`: a second handle is a store on the same namespace through another client, and the neighbour a
/// store on another namespace of the same table.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresKVStoreConformanceTests {
    @Test(arguments: AsyncKVStoringConformance.checks)
    func behavesLikeEveryKVStore(check: AsyncKVStoringConformance.Check) async throws {
        try await TestServer.withStores(2) { stores in
            let neighbour = PostgresKVStore(client: stores[0].client, namespace: "neighbour-\(UUID().uuidString)")
            let second = stores[1]
            try await check.run(
                on: AsyncKVStoringConformance.Subject(stores[0], reopen: { second }, neighbour: neighbour)
            )
            try await neighbour.removeAll()
        }
    }
}
