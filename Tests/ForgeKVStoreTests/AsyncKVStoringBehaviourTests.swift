import ForgeKVStore
import ForgeStorageTesting
import Testing

/// The behaviour every ``AsyncKVStoring`` shares (ForgeStorageTesting's public asynchronous suite), run against
/// each store the package ships through its asynchronous conformance, with a second handle and a neighbour
/// wherever the store has them.
@Suite("AsyncKVStoring behaviour")
struct AsyncKVStoringBehaviourTests {
    @Test(arguments: KVStoreKind.allCases, AsyncKVStoringConformance.checks)
    func everyStoreBehavesAlike(backend: KVStoreKind, check: AsyncKVStoringConformance.Check) async throws {
        try await backend.withAsyncSubject { subject in
            try await check.run(on: subject)
        }
    }
}
