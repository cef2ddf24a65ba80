import ForgeFileStore
import ForgeStorageTesting
import Testing

/// The behaviour every ``AsyncFileStoring`` shares (ForgeStorageTesting's public asynchronous suite), run against
/// each store the package ships through its asynchronous conformance, with a second handle and a neighbour where
/// the store has them.
@Suite("AsyncFileStoring behaviour")
struct AsyncFileStoringBehaviourTests {
    @Test(arguments: FileStoreKind.allCases, AsyncFileStoringConformance.checks)
    func everyStoreBehavesAlike(backend: FileStoreKind, check: AsyncFileStoringConformance.Check) async throws {
        try await backend.withAsyncSubject { subject in
            try await check.run(on: subject)
        }
    }
}
