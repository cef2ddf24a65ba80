import ForgeFileStore
import ForgePostgres
import ForgeStorageTesting
import Foundation
import Testing

/// The behaviour every file store shares (ForgeStorageTesting's asynchronous suite), run against `PostgresFileStore`:
/// a second handle is a store on the same namespace through another client, and the neighbour a store on another
/// namespace of the same table.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresFileStoreConformanceTests {
    @Test(arguments: AsyncFileStoringConformance.checks)
    func behavesLikeEveryFileStore(check: AsyncFileStoringConformance.Check) async throws {
        try await TestServer.withFileStores { first, second in
            let neighbour = PostgresFileStore(client: first.client, namespace: "neighbour-\(UUID().uuidString)")
            try await check.run(
                on: AsyncFileStoringConformance.Subject(first, reopen: { second }, neighbour: neighbour)
            )
            try await neighbour.deleteAll()
        }
    }
}
