import ForgeCrypt
import ForgePostgres
import ForgeStorageTesting
import Foundation
import Testing

/// The behaviour every secrets store shares (ForgeStorageTesting's asynchronous suite), run against `PostgresCrypt`:
/// a second handle is a store on the same namespace and master key through another client, and the neighbour a store
/// on another namespace of the same table, with another master key; each alone and seen through the seam.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresCryptConformanceTests {
    @Test(arguments: AsyncCryptStoringConformance.checks)
    func behavesLikeEveryCryptStore(check: AsyncCryptStoringConformance.Check) async throws {
        try await behavesLikeEveryCryptStore(check: check, seam: .alone)
    }

    /// Serialized, so that the wrapped stores' clients add to the server's connections no more than one check's.
    @Test(.serialized, arguments: AsyncCryptStoringConformance.checks, [Seam.events, .faults])
    func behavesLikeEveryCryptStoreThroughTheSeam(check: AsyncCryptStoringConformance.Check, seam: Seam) async throws {
        try await behavesLikeEveryCryptStore(check: check, seam: seam)
    }

    /// Runs `check` on the store as `seam` shows it.
    private func behavesLikeEveryCryptStore(check: AsyncCryptStoringConformance.Check, seam: Seam) async throws {
        let masterKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        try await TestServer.withCrypts(2, masterKey: masterKey) { stores in
            let neighbour = PostgresCrypt(
                client: stores[0].client,
                namespace: "neighbour-\(UUID().uuidString)",
                masterKey: .symmetric(SymmetricKey(size: .bits256))
            )
            let second = seam.secrets(stores[1])
            try await check.run(
                on: AsyncCryptStoringConformance.Subject(
                    seam.secrets(stores[0]),
                    reopen: { second },
                    neighbour: seam.secrets(neighbour)
                )
            )
            try await neighbour.deleteAll()
        }
    }
}
