import ForgeFileStore
import ForgeStorageTesting
import Foundation
import Testing

/// The behaviour every ``FileStoring`` shares (ForgeStorageTesting's public conformance suite), run against
/// each store the package ships, with a second handle and a neighbour where the store has them.
@Suite("FileStoring behaviour")
struct FileStoringBehaviourTests {
    @Test(arguments: FileStoreKind.allCases, FileStoringConformance.checks)
    func everyStoreBehavesAlike(backend: FileStoreKind, check: FileStoringConformance.Check) async throws {
        try await backend.withSubject { subject in
            try await check.run(on: subject)
        }
    }

    /// What the public suite leaves to each store, as the shipped stores do it: the temporary files' name form is
    /// refused (a save must never write over the store's own temporary file), other names that look like it are
    /// not, and the reason of a refusal names the rule broken.
    @Test(arguments: FileStoreKind.allCases)
    func theShippedStoresReserveTheirTemporaryNamesAndSayWhyAPathIsRefused(backend: FileStoreKind) async throws {
        try await backend.withStore { store in
            for path in [".x.forge-tmp-123-abc", "docs/.x.forge-tmp-123-abc"] {
                let error = await #expect(throws: FileStoreError.self) {
                    try await store.save(Data("x".utf8), to: path)
                }
                guard case .invalidPath(path, let reason) = error else {
                    Issue.record("\(path) was not refused as an invalid path: \(String(describing: error))")
                    continue
                }
                #expect(reason.contains("temporary files"))
                #expect(!store.exists(path))
            }
            try await store.save(Data("x".utf8), to: "a.forge-tmp-1-x")
            #expect(try await store.list(in: "") == ["a.forge-tmp-1-x"])
            let error = await #expect(throws: FileStoreError.self) { try await store.load("a/../b") }
            #expect(error?.errorDescription?.contains("'..'") == true)
        }
    }
}
