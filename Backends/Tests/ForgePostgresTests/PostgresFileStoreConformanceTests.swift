import ForgeFileStore
import ForgePostgres
import ForgeStorageTesting
import Foundation
import Testing

/// The behaviour every file store shares (ForgeStorageTesting's asynchronous suite), run against `PostgresFileStore`:
/// a second handle is a store on the same namespace through another client, and the neighbour a store on another
/// namespace of the same table; each alone and seen through the seam.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresFileStoreConformanceTests {
    @Test(arguments: AsyncFileStoringConformance.checks)
    func behavesLikeEveryFileStore(check: AsyncFileStoringConformance.Check) async throws {
        try await behavesLikeEveryFileStore(check: check, seam: .alone)
    }

    /// Serialized, so that the wrapped stores' clients add to the server's connections no more than one check's.
    @Test(.serialized, arguments: AsyncFileStoringConformance.checks, [Seam.events, .faults])
    func behavesLikeEveryFileStoreThroughTheSeam(check: AsyncFileStoringConformance.Check, seam: Seam) async throws {
        try await behavesLikeEveryFileStore(check: check, seam: seam)
    }

    /// Runs `check` on the store as `seam` shows it.
    private func behavesLikeEveryFileStore(check: AsyncFileStoringConformance.Check, seam: Seam) async throws {
        try await TestServer.withFileStores { first, second in
            let neighbour = PostgresFileStore(client: first.client, namespace: "neighbour-\(UUID().uuidString)")
            let reopened = seam.files(second)
            try await check.run(
                on: AsyncFileStoringConformance.Subject(
                    seam.files(first),
                    reopen: { reopened },
                    neighbour: seam.files(neighbour)
                )
            )
            try await neighbour.deleteAll()
        }
    }
}
