import ForgeFileStore
import ForgeStorageTesting
import Testing

/// The behaviour every ``FileStoring`` shares (ForgeStorageTesting's public conformance suite), run against
/// each store the package ships.
@Suite("FileStoring behaviour")
struct FileStoringBehaviourTests {
    @Test(arguments: FileBackend.allCases, FileStoringConformance.checks)
    func everyStoreBehavesAlike(backend: FileBackend, check: FileStoringConformance.Check) async throws {
        try await backend.withStore { store in
            try await check.run(on: store)
        }
    }
}
