import ForgeKVStore
import ForgePostgres
import ForgeStorageTesting
import Foundation
import Testing

/// The behaviour every key-value store shares (ForgeStorageTesting's asynchronous suite), run against
/// `PostgresKVStore`: a second handle is a store on the same namespace through another client, and the neighbour a
/// store on another namespace of the same table; each alone and seen through the seam.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresKVStoreConformanceTests {
    @Test(arguments: AsyncKVStoringConformance.checks)
    func behavesLikeEveryKVStore(check: AsyncKVStoringConformance.Check) async throws {
        try await behavesLikeEveryKVStore(check: check, seam: .alone)
    }

    /// Serialized, so that the wrapped stores' clients add to the server's connections no more than one check's.
    @Test(.serialized, arguments: AsyncKVStoringConformance.checks, [Seam.events, .faults])
    func behavesLikeEveryKVStoreThroughTheSeam(check: AsyncKVStoringConformance.Check, seam: Seam) async throws {
        try await behavesLikeEveryKVStore(check: check, seam: seam)
    }

    /// Runs `check` on the store as `seam` shows it.
    private func behavesLikeEveryKVStore(check: AsyncKVStoringConformance.Check, seam: Seam) async throws {
        try await TestServer.withStores(2) { stores in
            let neighbour = PostgresKVStore(client: stores[0].client, namespace: "neighbour-\(UUID().uuidString)")
            let second = seam.settings(stores[1])
            try await check.run(
                on: AsyncKVStoringConformance.Subject(
                    seam.settings(stores[0]),
                    reopen: { second },
                    neighbour: seam.settings(neighbour)
                )
            )
            try await neighbour.removeAll()
        }
    }
}
