import ForgeKVStore
import ForgeStorageTesting
import Testing

/// The behaviour every ``KVStoring`` shares (ForgeStorageTesting's public conformance suite), run against
/// each store the package ships.
@Suite("KVStoring behaviour")
struct KVStoringBehaviourTests {
    @Test(arguments: KVBackend.allCases, KVStoringConformance.checks)
    func everyStoreBehavesAlike(backend: KVBackend, check: KVStoringConformance.Check) async throws {
        try await backend.withStore { store in
            try await check.run(on: store)
        }
    }
}
