public import ForgeFileStore
internal import Foundation
public import Testing

/// The behaviour every `AsyncFileStoring` shares: the suite ``FileStoringConformance`` holds a synchronous store to,
/// ready to run against a store that conforms only to the asynchronous protocol, such as one behind a network.
///
/// Each check gets a fresh, empty store. Run each check as a test case of its own:
///
/// ```swift
/// import ForgeStorageTesting
/// import Testing
///
/// @Test(arguments: AsyncFileStoringConformance.checks)
/// func behavesLikeEveryFileStore(_ check: AsyncFileStoringConformance.Check) async throws {
///     try await check.run(on: MyNetworkFileStore())
/// }
/// ```
///
/// or all of them in one test with ``run(makeStore:sourceLocation:)``. Pass a ``Subject`` instead of the store to
/// run the checks that need a second handle or a neighbour; without them those checks are reported as skipped.
///
/// These checks are the definitions: ``FileStoringConformance`` runs each of them against a synchronous store
/// (whose `exists` is synchronous) through its own methods, and adds the checks that call a store from several
/// threads at once.
public enum AsyncFileStoringConformance: ConformanceSuite {
    /// Every check of the suite, in a stable order; each names the behaviour it pins down.
    public static var checks: [Check] {
        coreChecks + sharingChecks
    }

    /// The checks of paths, saves, loads, listing, sizes and concurrent tasks, part of ``checks``.
    static var coreChecks: [Check] {
        [
            Check("save then load returns the data", saveThenLoadReturnsTheData),
            Check("empty and binary data round-trip", emptyAndBinaryDataRoundTrip),
            Check("a 48 MiB file round-trips", a48MiBFileRoundTrips),
            Check("exists tells files from folders and missing paths", existsTellsFilesFromFoldersAndMissingPaths),
            Check("save replaces the file by default", saveReplacesByDefault),
            Check(
                "save without overwrite refuses an existing file and keeps it",
                overwriteFalseRefusesAnExistingFileAndKeepsIt
            ),
            Check("load of a missing file throws notFound", loadOfAMissingFileThrowsNotFound),
            Check(
                "delete removes the file and throws notFound when it is missing",
                deleteRemovesTheFileAndThrowsNotFoundWhenMissing
            ),
            Check("a path is never a file and a folder at once", aPathIsNeverAFileAndAFolderAtOnce),
            Check(
                "list shows the direct entries sorted, folders ending in a slash",
                listShowsTheDirectEntriesSortedWithFoldersEndingInASlash
            ),
            Check("list of a folder that holds nothing is empty", listOfAFolderThatHoldsNothingIsEmpty),
            Check(
                "deleting the last file of a folder removes the folder",
                deletingTheLastFileOfAFolderRemovesTheFolder
            ),
            Check("totalSize sums every file", totalSizeSumsEveryFile),
            Check(
                "deleteAll clears everything and the store stays usable",
                deleteAllClearsEverythingAndTheStoreStaysUsable
            ),
            Check("canonically equivalent spellings name one file", canonicallyEquivalentSpellingsNameOneFile),
            Check(
                "names that differ only in case are two files, unless the store folds case",
                namesThatDifferOnlyInCaseAreTwoFiles
            ),
            Check(
                "names that start with a dot are listed, counted and deleted like any other",
                dotNamesAreListedCountedAndDeletedLikeAnyOther
            ),
            Check("unusual but valid names work", unusualButValidNamesWork),
            Check("concurrent saves to different paths all land", concurrentSavesToDifferentPathsAllLand),
            Check("concurrent saves to one path leave one whole version", concurrentSavesToOnePathLeaveOneWholeVersion),
            Check(
                "concurrent saves without overwrite let exactly one win",
                concurrentSavesWithoutOverwriteLetExactlyOneWin
            ),
            Check("invalid paths are refused and nothing is touched", invalidPathsAreRefusedAndNothingIsTouched),
            Check("invalid folder paths are refused by list", invalidFolderPathsAreRefusedByList),
            Check("the invalid path error names the path", theInvalidPathErrorNamesThePath),
        ] + dateChecks
    }

    /// The checks of a neighbour and a second handle, part of ``checks``; each is skipped without them.
    static var sharingChecks: [Check] {
        [
            Check(
                "deleteAll leaves a neighbour's files alone",
                needs: .neighbour,
                deleteAllLeavesANeighboursFilesAlone
            ),
            Check(
                "a second handle sees every change at once",
                needs: .secondHandle,
                aSecondHandleSeesEveryChangeAtOnce
            ),
        ]
    }

    /// Runs every check, each against a fresh store from `makeStore`, in the current test.
    ///
    /// ```swift
    /// @Test func behavesLikeEveryFileStore() async {
    ///     await AsyncFileStoringConformance.run { MyNetworkFileStore() }
    /// }
    /// ```
    ///
    /// A check that throws is recorded as an issue naming it, and the others still run.
    ///
    /// - Parameters:
    ///   - makeStore: Makes a fresh, empty store.
    ///   - sourceLocation: Where to report a check that throws; the caller's line by default.
    public static func run(
        makeStore: () async throws -> any AsyncFileStoring,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        await checks.runEach({ Subject(try await makeStore()) }, sourceLocation: sourceLocation)
    }
}

extension AsyncFileStoringConformance {
    private static func saveThenLoadReturnsTheData(_ store: any AsyncFileStoring) async throws {
        try await store.save(Data("hello world".utf8), to: "notes/test.txt")
        #expect(try await store.load("notes/test.txt") == Data("hello world".utf8))
    }

    private static func emptyAndBinaryDataRoundTrip(_ store: any AsyncFileStoring) async throws {
        let binary = Data((0...255).map { UInt8($0) } + [0, 0, 0xFF, 0xFE])
        try await store.save(Data(), to: "empty.bin")
        try await store.save(binary, to: "binary.bin")
        #expect(try await store.load("empty.bin") == Data())
        #expect(try await store.exists("empty.bin"))
        #expect(try await store.load("binary.bin") == binary)
    }

    private static func a48MiBFileRoundTrips(_ store: any AsyncFileStoring) async throws {
        var large = Data(count: 48 * 1024 * 1024)
        for index in stride(from: 0, to: large.count, by: 4096) {
            large[index] = UInt8(truncatingIfNeeded: index / 4096 &* 31 &+ 7)
        }
        large[large.count - 1] = 0xAB
        try await store.save(large, to: "big/blob.bin")
        let loaded = try await store.load("big/blob.bin")
        #expect(loaded.count == large.count)
        #expect(loaded == large)
        #expect(try await store.totalSize() == large.count)
    }

    private static func existsTellsFilesFromFoldersAndMissingPaths(_ store: any AsyncFileStoring) async throws {
        #expect(try await !store.exists("file.txt"))
        try await store.save(Data("x".utf8), to: "docs/file.txt")
        #expect(try await store.exists("docs/file.txt"))
        #expect(try await !store.exists("docs"))
        #expect(try await !store.exists("docs/other.txt"))
        #expect(try await !store.exists("docs/file.txt/deeper"))
    }

    private static func saveReplacesByDefault(_ store: any AsyncFileStoring) async throws {
        try await store.save(Data("first, longer".utf8), to: "file.txt")
        try await store.save(Data("second".utf8), to: "file.txt")
        #expect(try await store.load("file.txt") == Data("second".utf8))
        #expect(try await store.totalSize() == 6)
    }

    private static func overwriteFalseRefusesAnExistingFileAndKeepsIt(_ store: any AsyncFileStoring) async throws {
        try await store.save(Data("a".utf8), to: "file.txt")
        await #expect(throws: FileStoreError.alreadyExists(path: "file.txt")) {
            try await store.save(Data("b".utf8), to: "file.txt", overwrite: false)
        }
        #expect(try await store.load("file.txt") == Data("a".utf8))
        try await store.save(Data("new".utf8), to: "new.txt", overwrite: false)
        #expect(try await store.load("new.txt") == Data("new".utf8))
    }

    private static func loadOfAMissingFileThrowsNotFound(_ store: any AsyncFileStoring) async throws {
        await #expect(throws: FileStoreError.notFound(path: "nonexistent.txt")) {
            try await store.load("nonexistent.txt")
        }
        try await store.save(Data("x".utf8), to: "file.txt")
        await #expect(throws: FileStoreError.notFound(path: "file.txt/inside")) {
            try await store.load("file.txt/inside")
        }
    }

    private static func deleteRemovesTheFileAndThrowsNotFoundWhenMissing(_ store: any AsyncFileStoring) async throws {
        try await store.save(Data("x".utf8), to: "file.txt")
        try await store.delete("file.txt")
        #expect(try await !store.exists("file.txt"))
        await #expect(throws: FileStoreError.notFound(path: "file.txt")) {
            try await store.delete("file.txt")
        }
    }

    private static func aPathIsNeverAFileAndAFolderAtOnce(_ store: any AsyncFileStoring) async throws {
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

    private static func listShowsTheDirectEntriesSortedWithFoldersEndingInASlash(_ store: any AsyncFileStoring)
        async throws
    {
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

    private static func listOfAFolderThatHoldsNothingIsEmpty(_ store: any AsyncFileStoring) async throws {
        #expect(try await store.list(in: "").isEmpty)
        #expect(try await store.list(in: "missing").isEmpty)
        try await store.save(Data("x".utf8), to: "file.txt")
        #expect(try await store.list(in: "file.txt").isEmpty)
    }

    private static func deletingTheLastFileOfAFolderRemovesTheFolder(_ store: any AsyncFileStoring) async throws {
        try await store.save(Data("x".utf8), to: "a/b/c/file.txt")
        try await store.save(Data("y".utf8), to: "a/keep.txt")
        try await store.delete("a/b/c/file.txt")
        #expect(try await store.list(in: "a") == ["a/keep.txt"])
        #expect(try await store.list(in: "a/b").isEmpty)
        // The path that was a folder can now be a file.
        try await store.save(Data("z".utf8), to: "a/b")
        #expect(try await store.list(in: "a") == ["a/b", "a/keep.txt"])
    }

    private static func totalSizeSumsEveryFile(_ store: any AsyncFileStoring) async throws {
        #expect(try await store.totalSize() == 0)
        try await store.save(Data(count: 10), to: "a.bin")
        try await store.save(Data(count: 20), to: "x/b.bin")
        try await store.save(Data(count: 30), to: "x/y/z/c.bin")
        try await store.save(Data(), to: "x/empty.bin")
        #expect(try await store.totalSize() == 60)
        try await store.delete("x/b.bin")
        #expect(try await store.totalSize() == 40)
    }

    /// Every hostile path is among the files (spaces, colons, emoji, NFD, names of 255 bytes, dot-names, in folders
    /// and at the top): kills a `deleteAll` that leaves the files a careless store finds hard to name.
    private static func deleteAllClearsEverythingAndTheStoreStaysUsable(_ store: any AsyncFileStoring) async throws {
        try await store.save(Data("a".utf8), to: "file1.txt")
        try await store.save(Data("b".utf8), to: "deep/er/file2.txt")
        try await save(hostileFiles(of: "store"), in: store)
        try await store.deleteAll()
        #expect(try await !store.exists("file1.txt"))
        #expect(try await !store.exists("deep/er/file2.txt"))
        try await expectNoHostileFile(in: store, "the store")
        try await store.deleteAll()
        try await store.save(Data("c".utf8), to: "again.txt")
        #expect(try await store.list(in: "") == ["again.txt"])
    }

    private static func canonicallyEquivalentSpellingsNameOneFile(_ store: any AsyncFileStoring) async throws {
        let precomposed = "caf\u{E9}/r\u{E9}sum\u{E9}.txt"
        let decomposed = "cafe\u{301}/re\u{301}sume\u{301}.txt"
        try await store.save(Data("1".utf8), to: precomposed)
        try await store.save(Data("2".utf8), to: decomposed)
        #expect(try await store.load(precomposed) == Data("2".utf8))
        #expect(try await store.list(in: "") == ["caf\u{E9}/"])
        #expect(try await store.list(in: "cafe\u{301}").count == 1)
        #expect(try await store.totalSize() == 1)
    }

    /// Kills a store that folds case (`A.txt` and `a.txt` one file) while its subject says it does not.
    private static func namesThatDifferOnlyInCaseAreTwoFiles(_ subject: Subject) async throws {
        let store = subject.store
        try await store.save(Data("UPPER".utf8), to: "A.txt")
        try await store.save(Data("lower!".utf8), to: "a.txt")
        try await store.save(Data("1".utf8), to: "Docs/x.txt")
        try await store.save(Data("22".utf8), to: "docs/x.txt")
        if subject.foldsCase {
            // One file and one folder, each holding what was saved last.
            #expect(try await store.load("A.txt") == Data("lower!".utf8))
            #expect(try await store.load("Docs/x.txt") == Data("22".utf8))
            #expect(try await store.list(in: "").count == 2)
            #expect(try await store.totalSize() == 8)
        } else {
            #expect(try await store.load("A.txt") == Data("UPPER".utf8))
            #expect(try await store.load("a.txt") == Data("lower!".utf8))
            #expect(try await store.load("Docs/x.txt") == Data("1".utf8))
            #expect(try await store.list(in: "") == ["A.txt", "Docs/", "a.txt", "docs/"])
            #expect(try await store.list(in: "Docs") == ["Docs/x.txt"])
            #expect(try await store.totalSize() == 14)
            try await store.delete("a.txt")
            #expect(try await store.exists("A.txt"))
        }
    }

    /// Kills a store that skips hidden names: in `list`, in `totalSize`, or in `deleteAll`.
    private static func dotNamesAreListedCountedAndDeletedLikeAnyOther(_ store: any AsyncFileStoring) async throws {
        try await store.save(Data("1234".utf8), to: ".hidden")
        try await store.save(Data("123".utf8), to: "docs/.config")
        try await store.save(Data("12".utf8), to: "docs/visible.txt")
        try await store.save(Data("1".utf8), to: ".dotfolder/x")
        #expect(try await store.exists(".hidden"))
        #expect(try await store.list(in: "") == [".dotfolder/", ".hidden", "docs/"])
        #expect(try await store.list(in: "docs") == ["docs/.config", "docs/visible.txt"])
        #expect(try await store.totalSize() == 10)
        try await store.deleteAll()
        for path in [".hidden", "docs/.config", ".dotfolder/x"] {
            #expect(try await !store.exists(path), "\(path) outlived deleteAll")
        }
        #expect(try await store.list(in: "").isEmpty)
        #expect(try await store.totalSize() == 0)
    }

    private static func unusualButValidNamesWork(_ store: any AsyncFileStoring) async throws {
        let names = unusualFileNames
        for name in names {
            try await store.save(Data(name.utf8), to: "names/\(name)")
        }
        for name in names {
            #expect(try await store.load("names/\(name)") == Data(name.utf8))
        }
        #expect(try await store.list(in: "names") == names.map { "names/\($0)" }.sorted())
    }

    private static func concurrentSavesToDifferentPathsAllLand(_ store: any AsyncFileStoring) async throws {
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

    private static func concurrentSavesToOnePathLeaveOneWholeVersion(_ store: any AsyncFileStoring) async throws {
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

    private static func concurrentSavesWithoutOverwriteLetExactlyOneWin(_ store: any AsyncFileStoring) async throws {
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

    /// Paths every store refuses with `invalidPath`.
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
    ]

    private static func invalidPathsAreRefusedAndNothingIsTouched(_ store: any AsyncFileStoring) async throws {
        try await store.save(Data("keep".utf8), to: "keep.txt")
        for path in invalidPaths {
            await expectInvalidPath(path) { try await store.save(Data("x".utf8), to: path) }
            await expectInvalidPath(path) { try await store.save(Data("x".utf8), to: path, overwrite: false) }
            await expectInvalidPath(path) { _ = try await store.load(path) }
            await expectInvalidPath(path) { try await store.delete(path) }
            #expect(try await !store.exists(path), "path \(path.debugDescription)")
        }
        #expect(try await store.list(in: "") == ["keep.txt"])
        #expect(try await store.totalSize() == 4)
    }

    private static func invalidFolderPathsAreRefusedByList(_ store: any AsyncFileStoring) async throws {
        for folder in ["/", "/docs", "../up", "docs/..", "a//b", "docs//", "n\u{0}"] {
            await expectInvalidPath(folder) { _ = try await store.list(in: folder) }
        }
    }

    /// The error is typed and names the path; its reason is the store's own words, which the check only needs to
    /// be there.
    private static func theInvalidPathErrorNamesThePath(_ store: any AsyncFileStoring) async throws {
        await expectInvalidPath("a/../b") { _ = try await store.load("a/../b") }
        let error = await #expect(throws: FileStoreError.self) { try await store.delete("a/../b") }
        #expect(error?.path == "a/../b")
    }

    private static func expectInvalidPath(
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
