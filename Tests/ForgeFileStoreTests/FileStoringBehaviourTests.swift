import ForgeFileStore
import Foundation
import Testing

/// The behaviour every ``FileStoring`` shares, run against each store the package ships.
@Suite("FileStoring behaviour")
struct FileStoringBehaviourTests {
    @Test(arguments: FileBackend.allCases)
    func saveThenLoadReturnsTheData(backend: FileBackend) async throws {
        try await backend.withStore { store in
            try await store.save(Data("hello world".utf8), to: "notes/test.txt")
            #expect(try await store.load("notes/test.txt") == Data("hello world".utf8))
        }
    }

    @Test(arguments: FileBackend.allCases)
    func emptyAndBinaryDataRoundTrip(backend: FileBackend) async throws {
        try await backend.withStore { store in
            let binary = Data((0...255).map { UInt8($0) } + [0, 0, 0xFF, 0xFE])
            try await store.save(Data(), to: "empty.bin")
            try await store.save(binary, to: "binary.bin")
            #expect(try await store.load("empty.bin") == Data())
            #expect(store.exists("empty.bin"))
            #expect(try await store.load("binary.bin") == binary)
        }
    }

    @Test(arguments: FileBackend.allCases)
    func a48MiBFileRoundTrips(backend: FileBackend) async throws {
        try await backend.withStore { store in
            var large = Data(count: 48 * 1024 * 1024)
            large.withUnsafeMutableBytes { bytes in
                for index in stride(from: 0, to: bytes.count, by: 4096) {
                    bytes[index] = UInt8(truncatingIfNeeded: index / 4096 &* 31 &+ 7)
                }
                bytes[bytes.count - 1] = 0xAB
            }
            try await store.save(large, to: "big/blob.bin")
            let loaded = try await store.load("big/blob.bin")
            #expect(loaded.count == large.count)
            #expect(loaded == large)
            #expect(try await store.totalSize() == large.count)
        }
    }

    @Test(arguments: FileBackend.allCases)
    func existsTellsFilesFromFoldersAndMissingPaths(backend: FileBackend) async throws {
        try await backend.withStore { store in
            #expect(!store.exists("file.txt"))
            try await store.save(Data("x".utf8), to: "docs/file.txt")
            #expect(store.exists("docs/file.txt"))
            #expect(!store.exists("docs"))
            #expect(!store.exists("docs/other.txt"))
            #expect(!store.exists("docs/file.txt/deeper"))
        }
    }

    @Test(arguments: FileBackend.allCases)
    func saveReplacesByDefault(backend: FileBackend) async throws {
        try await backend.withStore { store in
            try await store.save(Data("first, longer".utf8), to: "file.txt")
            try await store.save(Data("second".utf8), to: "file.txt")
            #expect(try await store.load("file.txt") == Data("second".utf8))
            #expect(try await store.totalSize() == 6)
        }
    }

    @Test(arguments: FileBackend.allCases)
    func overwriteFalseRefusesAnExistingFileAndKeepsIt(backend: FileBackend) async throws {
        try await backend.withStore { store in
            try await store.save(Data("a".utf8), to: "file.txt")
            await #expect(throws: FileStoreError.alreadyExists(path: "file.txt")) {
                try await store.save(Data("b".utf8), to: "file.txt", overwrite: false)
            }
            #expect(try await store.load("file.txt") == Data("a".utf8))
            try await store.save(Data("new".utf8), to: "new.txt", overwrite: false)
            #expect(try await store.load("new.txt") == Data("new".utf8))
        }
    }

    @Test(arguments: FileBackend.allCases)
    func loadOfAMissingFileThrowsNotFound(backend: FileBackend) async throws {
        try await backend.withStore { store in
            await #expect(throws: FileStoreError.notFound(path: "nonexistent.txt")) {
                try await store.load("nonexistent.txt")
            }
            try await store.save(Data("x".utf8), to: "file.txt")
            await #expect(throws: FileStoreError.notFound(path: "file.txt/inside")) {
                try await store.load("file.txt/inside")
            }
        }
    }

    @Test(arguments: FileBackend.allCases)
    func deleteRemovesTheFileAndThrowsNotFoundWhenMissing(backend: FileBackend) async throws {
        try await backend.withStore { store in
            try await store.save(Data("x".utf8), to: "file.txt")
            try await store.delete("file.txt")
            #expect(!store.exists("file.txt"))
            await #expect(throws: FileStoreError.notFound(path: "file.txt")) {
                try await store.delete("file.txt")
            }
        }
    }

    @Test(arguments: FileBackend.allCases)
    func aPathIsNeverAFileAndAFolderAtOnce(backend: FileBackend) async throws {
        try await backend.withStore { store in
            try await store.save(Data("x".utf8), to: "docs/a.txt")
            try await store.save(Data("y".utf8), to: "plain.txt")
            await #expect(throws: FileStoreError.writeFailed(path: "docs", reason: .isFolder)) {
                try await store.save(Data("z".utf8), to: "docs")
            }
            await #expect(throws: FileStoreError.writeFailed(path: "docs", reason: .isFolder)) {
                try await store.save(Data("z".utf8), to: "docs", overwrite: false)
            }
            await #expect(throws: FileStoreError.writeFailed(path: "plain.txt/b.txt", reason: .parentIsFile)) {
                try await store.save(Data("z".utf8), to: "plain.txt/b.txt")
            }
            await #expect(throws: FileStoreError.readFailed(path: "docs", reason: .isFolder)) {
                try await store.load("docs")
            }
            await #expect(throws: FileStoreError.deleteFailed(path: "docs", reason: .isFolder)) {
                try await store.delete("docs")
            }
            #expect(try await store.list(in: "") == ["docs/", "plain.txt"])
            #expect(try await store.load("docs/a.txt") == Data("x".utf8))
            #expect(try await store.load("plain.txt") == Data("y".utf8))
        }
    }

    @Test(arguments: FileBackend.allCases)
    func listShowsTheDirectEntriesSortedWithFoldersEndingInASlash(backend: FileBackend) async throws {
        try await backend.withStore { store in
            try await store.save(Data("b".utf8), to: "docs/b.txt")
            try await store.save(Data("a".utf8), to: "docs/a.txt")
            try await store.save(Data("d".utf8), to: "docs/drafts/d.txt")
            try await store.save(Data("o".utf8), to: "docs-old/x.txt")
            try await store.save(Data("c".utf8), to: "other/c.txt")
            try await store.save(Data("r".utf8), to: "readme.md")

            #expect(try await store.list(in: "docs") == ["docs/a.txt", "docs/b.txt", "docs/drafts/"])
            #expect(try await store.list(in: "docs/") == ["docs/a.txt", "docs/b.txt", "docs/drafts/"])
            #expect(try await store.list(in: "docs/drafts/") == ["docs/drafts/d.txt"])
            #expect(try await store.list(in: "") == ["docs-old/", "docs/", "other/", "readme.md"])
        }
    }

    @Test(arguments: FileBackend.allCases)
    func listOfAFolderThatHoldsNothingIsEmpty(backend: FileBackend) async throws {
        try await backend.withStore { store in
            #expect(try await store.list(in: "").isEmpty)
            #expect(try await store.list(in: "missing").isEmpty)
            try await store.save(Data("x".utf8), to: "file.txt")
            #expect(try await store.list(in: "file.txt").isEmpty)
        }
    }

    @Test(arguments: FileBackend.allCases)
    func deletingTheLastFileOfAFolderRemovesTheFolder(backend: FileBackend) async throws {
        try await backend.withStore { store in
            try await store.save(Data("x".utf8), to: "a/b/c/file.txt")
            try await store.save(Data("y".utf8), to: "a/keep.txt")
            try await store.delete("a/b/c/file.txt")
            #expect(try await store.list(in: "a") == ["a/keep.txt"])
            #expect(try await store.list(in: "a/b").isEmpty)
            // The path that was a folder can now be a file.
            try await store.save(Data("z".utf8), to: "a/b")
            #expect(try await store.list(in: "a") == ["a/b", "a/keep.txt"])
        }
    }

    @Test(arguments: FileBackend.allCases)
    func totalSizeSumsEveryFile(backend: FileBackend) async throws {
        try await backend.withStore { store in
            #expect(try await store.totalSize() == 0)
            try await store.save(Data(count: 10), to: "a.bin")
            try await store.save(Data(count: 20), to: "x/b.bin")
            try await store.save(Data(count: 30), to: "x/y/z/c.bin")
            try await store.save(Data(), to: "x/empty.bin")
            #expect(try await store.totalSize() == 60)
            try await store.delete("x/b.bin")
            #expect(try await store.totalSize() == 40)
        }
    }

    @Test(arguments: FileBackend.allCases)
    func deleteAllClearsEverythingAndTheStoreStaysUsable(backend: FileBackend) async throws {
        try await backend.withStore { store in
            try await store.save(Data("a".utf8), to: "file1.txt")
            try await store.save(Data("b".utf8), to: "deep/er/file2.txt")
            try await store.deleteAll()
            #expect(try await store.totalSize() == 0)
            #expect(try await store.list(in: "").isEmpty)
            #expect(!store.exists("file1.txt"))
            try await store.deleteAll()
            try await store.save(Data("c".utf8), to: "again.txt")
            #expect(try await store.list(in: "") == ["again.txt"])
        }
    }

    @Test(arguments: FileBackend.allCases)
    func canonicallyEquivalentSpellingsNameOneFile(backend: FileBackend) async throws {
        try await backend.withStore { store in
            let precomposed = "caf\u{E9}/r\u{E9}sum\u{E9}.txt"
            let decomposed = "cafe\u{301}/re\u{301}sume\u{301}.txt"
            try await store.save(Data("1".utf8), to: precomposed)
            try await store.save(Data("2".utf8), to: decomposed)
            #expect(try await store.load(precomposed) == Data("2".utf8))
            #expect(try await store.list(in: "") == ["caf\u{E9}/"])
            #expect(try await store.list(in: "cafe\u{301}").count == 1)
            #expect(try await store.totalSize() == 1)
        }
    }

    @Test(arguments: FileBackend.allCases)
    func unusualButValidNamesWork(backend: FileBackend) async throws {
        try await backend.withStore { store in
            let names = [
                ".hidden", "with space.txt", "emoji-📄.txt", "back\\slash", "...", "a.forge-tmp-1-x",
                String(repeating: "n", count: 255), String(repeating: "📄", count: 63),
            ]
            for name in names {
                try await store.save(Data(name.utf8), to: "names/\(name)")
            }
            for name in names {
                #expect(try await store.load("names/\(name)") == Data(name.utf8))
            }
            #expect(try await store.list(in: "names") == names.map { "names/\($0)" }.sorted())
        }
    }

    @Test(arguments: FileBackend.allCases)
    func concurrentSavesToDifferentPathsAllLand(backend: FileBackend) async throws {
        try await backend.withStore { store in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<64 {
                    group.addTask {
                        try await store.save(Data("file \(index)".utf8), to: "many/\(index % 4)/\(index).txt")
                    }
                }
                try await group.waitForAll()
            }
            for index in 0..<64 {
                #expect(try await store.load("many/\(index % 4)/\(index).txt") == Data("file \(index)".utf8))
            }
            #expect(try await store.list(in: "many/0").count == 16)
        }
    }

    @Test(arguments: FileBackend.allCases)
    func concurrentSavesToOnePathLeaveOneWholeVersion(backend: FileBackend) async throws {
        try await backend.withStore { store in
            let size = 256 * 1024
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<16 {
                    group.addTask {
                        try await store.save(Data(repeating: UInt8(writer), count: size), to: "shared/one.bin")
                    }
                }
                try await group.waitForAll()
            }
            let final = try await store.load("shared/one.bin")
            #expect(final.count == size)
            let first = try #require(final.first)
            #expect(first < 16)
            #expect(final.allSatisfy { $0 == first })
            #expect(try await store.list(in: "shared") == ["shared/one.bin"])
            #expect(try await store.totalSize() == size)
        }
    }

    @Test(arguments: FileBackend.allCases)
    func concurrentSavesWithoutOverwriteLetExactlyOneWin(backend: FileBackend) async throws {
        try await backend.withStore { store in
            let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                for writer in 0..<16 {
                    group.addTask {
                        do {
                            try await store.save(Data([UInt8(writer)]), to: "once.bin", overwrite: false)
                            return true
                        } catch FileStoreError.alreadyExists {
                            return false
                        }
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 1)
            #expect(try await store.load("once.bin").count == 1)
        }
    }
}
