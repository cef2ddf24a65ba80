import ForgeFileStore
import Foundation
import Testing

/// The public path rules: the same paths refused with the same error as the stores refuse them, and canonical
/// components for a store of another backing.
struct StoredFilePathTests {
    @Test func aFilePathGivesItsCanonicalSpellingComponentsAndFolders() throws {
        let path = try StoredFilePath(validating: "docs/2025/cafe\u{301}.txt")
        #expect(path.string == "docs/2025/caf\u{E9}.txt")
        #expect(path.string.unicodeScalars.count == "docs/2025/caf\u{E9}.txt".unicodeScalars.count)
        #expect(path.components == ["docs", "2025", "caf\u{E9}.txt"])
        #expect(path.enclosingFolders == ["docs", "docs/2025"])
        #expect(try StoredFilePath(validating: "top.txt").enclosingFolders.isEmpty)
        #expect(try StoredFilePath(validating: "cafe\u{301}") == StoredFilePath(validating: "caf\u{E9}"))
    }

    @Test func aFolderPathMayBeTheTopFolderOrEndInASlash() throws {
        let top = try StoredFilePath(validatingFolder: "")
        #expect(top.string.isEmpty)
        #expect(top.components.isEmpty)
        #expect(try StoredFilePath(validatingFolder: "docs/").string == "docs")
        #expect(try StoredFilePath(validatingFolder: "docs/drafts").components == ["docs", "drafts"])
        #expect(throws: FileStoreError.self) { try StoredFilePath(validating: "docs/") }
        #expect(throws: FileStoreError.self) { try StoredFilePath(validating: "") }
    }

    @Test(arguments: [
        "/etc/passwd", "a//b", "../up", "a/./b", "a/..", "nul\u{0}here", String(repeating: "n", count: 256),
        String(repeating: "abcdefgh/", count: 114) + "x", ".name.forge-tmp-1234",
    ])
    func invalidPathsAreRefusedAsTheStoresRefuseThem(path: String) async throws {
        let error = #expect(throws: FileStoreError.self) { try StoredFilePath(validating: path) }
        guard let error, case .invalidPath(let named, let reason) = error else {
            Issue.record("expected invalidPath, got \(String(describing: error))")
            return
        }
        #expect(named == path)
        #expect(!reason.isEmpty)
        // The library's own store refuses the path with the same error.
        await #expect(throws: error) { try await InMemoryFileStore().save(Data(), to: path) }
        #expect(throws: FileStoreError.self) { try StoredFilePath(validatingFolder: path) }
    }

    @Test func theLongestPathIsAccepted() throws {
        let longest = String(repeating: "abcdefgh/", count: 113) + String(repeating: "x", count: 7)
        #expect(longest.utf8.count == StoredFilePath.maximumLength)
        #expect(try StoredFilePath(validating: longest).components.count == 114)
        #expect(throws: FileStoreError.self) { try StoredFilePath(validating: longest + "x") }
    }
}
