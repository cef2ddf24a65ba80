import ForgeKVStore
import ForgeStorageTesting
import Testing

/// The behaviour every ``KVStoring`` shares (ForgeStorageTesting's public conformance suite), run against
/// each store the package ships, with a second handle and a neighbour wherever the store has them.
@Suite("KVStoring behaviour")
struct KVStoringBehaviourTests {
    @Test(arguments: KVStoreKind.allCases, KVStoringConformance.checks)
    func everyStoreBehavesAlike(backend: KVStoreKind, check: KVStoringConformance.Check) async throws {
        try await backend.withSubject { subject in
            try await check.run(on: subject)
        }
    }
}
