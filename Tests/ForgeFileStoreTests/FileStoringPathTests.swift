import ForgeFileStore
import Foundation
import Testing

/// Paths every ``FileStoring`` refuses alike, before touching anything.
@Suite("FileStoring path validation")
struct FileStoringPathTests {
    static let invalidPaths: [String] = [
        "",
        "/etc/passwd",
        "/",
        "../escape.txt",
        "docs/../../escape.txt",
        "docs/..",
        "./file.txt",
        "docs/./file.txt",
        "docs//file.txt",
        "docs/",
        "nul\u{0}byte.txt",
        String(repeating: "n", count: 256),
        String(repeating: "é", count: 128),
        String(repeating: "abcdefgh/", count: 120) + "file",
        ".x.forge-tmp-123-abc",
        "docs/.x.forge-tmp-123-abc",
    ]

    @Test(arguments: FileBackend.allCases, invalidPaths)
    func invalidPathsAreRefusedAndNothingIsTouched(backend: FileBackend, path: String) async throws {
        try await backend.withStore { store in
            try await store.save(Data("keep".utf8), to: "keep.txt")
            await expectInvalidPath(path) { try await store.save(Data("x".utf8), to: path) }
            await expectInvalidPath(path) { try await store.save(Data("x".utf8), to: path, overwrite: false) }
            await expectInvalidPath(path) { _ = try await store.load(path) }
            await expectInvalidPath(path) { try await store.delete(path) }
            await expectInvalidPath(path) { try await store.saveJSON(["a": 1], to: path) }
            #expect(!store.exists(path))
            #expect(try await store.list(in: "") == ["keep.txt"])
            #expect(try await store.totalSize() == 4)
        }
    }

    @Test(arguments: FileBackend.allCases, ["/", "/docs", "../up", "docs/..", "a//b", "docs//", "n\u{0}"])
    func invalidFolderPathsAreRefusedByList(backend: FileBackend, folder: String) async throws {
        try await backend.withStore { store in
            await expectInvalidPath(folder) { _ = try await store.list(in: folder) }
        }
    }

    @Test(arguments: FileBackend.allCases)
    func theInvalidPathErrorSaysWhy(backend: FileBackend) async throws {
        try await backend.withStore { store in
            let error = await #expect(throws: FileStoreError.self) { try await store.load("a/../b") }
            #expect(error?.errorDescription?.contains("'..'") == true)
            #expect(error?.path == "a/../b")
        }
    }

    private func expectInvalidPath(
        _ path: String,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws -> Void
    ) async {
        do {
            try await body()
            Issue.record("'\(path)' was accepted", sourceLocation: sourceLocation)
        } catch FileStoreError.invalidPath(let reported, let reason) {
            #expect(reported == path, sourceLocation: sourceLocation)
            #expect(!reason.isEmpty, sourceLocation: sourceLocation)
        } catch {
            Issue.record("'\(path)' failed with \(error), not invalidPath", sourceLocation: sourceLocation)
        }
    }
}
