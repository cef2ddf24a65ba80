import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeCore

struct StoreFolderTests {
    /// Options that open paths beneath the folder in one call where the system can, or one name at a time.
    private static func options(opensPathsInOneCall: Bool) -> StoreFolder.Options {
        var options = StoreFolder.Options()
        options.opensPathsInOneCall = opensPathsInOneCall
        return options
    }

    /// A store folder inside a fresh temporary folder, and that temporary folder's path.
    private func withFolder(
        options: StoreFolder.Options = StoreFolder.Options(),
        _ body: (StoreFolder, String) throws -> Void
    ) async throws {
        try await withTemporaryFolder { base in
            try body(StoreFolder(path: base.path + "/store", options: options), base.path)
        }
    }

    @Test(arguments: [true, false]) func aWriteReplacesTheFileCreatesItsFoldersAndLeavesNoTemporaryFile(
        opensPathsInOneCall: Bool
    ) async throws {
        try await withFolder(options: Self.options(opensPathsInOneCall: opensPathsInOneCall)) { folder, _ in
            try folder.write(Data("old".utf8), as: "file.bin", in: ["nested", "deeper"])
            try folder.write(Data("new".utf8), as: "file.bin", in: ["nested", "deeper"])
            #expect(try folder.read("file.bin", in: ["nested", "deeper"]) == Data("new".utf8))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/nested/deeper") == ["file.bin"])
        }
    }

    @Test func aWriteThatMayNotReplaceFailsWithEEXISTAndKeepsTheFile() async throws {
        try await withFolder { folder, _ in
            try folder.write(Data("first".utf8), as: "file", replacing: false)
            let error = #expect(throws: FileSystemError.self) {
                try folder.write(Data("second".utf8), as: "file", replacing: false)
            }
            #expect(error?.isAlreadyExists == true)
            #expect(try folder.read("file") == Data("first".utf8))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["file"])
        }
    }

    @Test func permissionsAndDurabilityAreApplied() async throws {
        var options = StoreFolder.Options()
        options.filePermissions = 0o600
        options.folderPermissions = 0o700
        options.durability = .flushed
        try await withFolder(options: options) { folder, _ in
            try folder.write(Data("secret".utf8), as: "s", in: ["inner"])
            #expect(try ForeignFiles.permissions(atPath: folder.path + "/inner/s") == 0o600)
            #expect(try ForeignFiles.permissions(atPath: folder.path + "/inner") == 0o700)
            #expect(try folder.read("s", in: ["inner"]) == Data("secret".utf8))
        }
    }

    @Test func emptyAndLargeFilesRoundTrip() async throws {
        try await withFolder { folder, _ in
            try folder.write(Data(), as: "empty")
            #expect(try folder.read("empty").isEmpty)
            let large = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            try folder.write(large, as: "large")
            #expect(try folder.read("large") == large)
        }
    }

    @Test func aFileThatGrowsAfterItsSizeWasTakenIsReadToItsEnd() async throws {
        try await withFolder { folder, _ in
            // A file another program appends to is read until the end, not only up to the size it had.
            try folder.write(Data("start".utf8), as: "log")
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: folder.path + "/log"))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(repeating: 65, count: 10_000))
            try handle.close()
            #expect(try folder.read("log").count == 10_005)
        }
    }

    @Test(arguments: [true, false]) func readingAMissingFileIsNotFoundAndNamesThePath(opensPathsInOneCall: Bool)
        async throws
    {
        try await withFolder(options: Self.options(opensPathsInOneCall: opensPathsInOneCall)) { folder, _ in
            try folder.write(Data(), as: "present")
            for folders in [[], ["sub"]] as [ArraySlice<String>] {
                let error = #expect(throws: FileSystemError.self) { try folder.read("none", in: folders) }
                #expect(error?.isNotFound == true)
            }
            let error = #expect(throws: FileSystemError.self) { try folder.read("none") }
            #expect(error?.path.hasPrefix(folder.path) == true)
        }
    }

    @Test(arguments: [true, false]) func aFileOnTheWayFailsAsNotAFolderAndAFolderAsNotAFile(opensPathsInOneCall: Bool)
        async throws
    {
        try await withFolder(options: Self.options(opensPathsInOneCall: opensPathsInOneCall)) { folder, _ in
            try folder.write(Data("x".utf8), as: "file")
            let underFile = #expect(throws: FileSystemError.self) {
                try folder.write(Data("y".utf8), as: "child", in: ["file"])
            }
            #expect(underFile?.reason == .parentIsFile)
            try folder.write(Data("z".utf8), as: "inner", in: ["dir"])
            let onFolder = #expect(throws: FileSystemError.self) { try folder.write(Data("w".utf8), as: "dir") }
            #expect(onFolder?.reason == .isFolder)
            #expect(throws: FileSystemError.self) { try folder.remove("dir") }
            #expect(try folder.read("inner", in: ["dir"]) == Data("z".utf8))
        }
    }

    @Test(arguments: [true, false]) func linksInsideAreNeverFollowedAndAreRemovedOnlyWhenAllowed(
        opensPathsInOneCall: Bool
    ) async throws {
        try await withFolder(options: Self.options(opensPathsInOneCall: opensPathsInOneCall)) { folder, base in
            try ForeignFiles.write(Data("outside".utf8), toPath: base + "/outside/file")
            try folder.write(Data(), as: "placeholder")
            try FileManager.default.createSymbolicLink(
                atPath: folder.path + "/dir",
                withDestinationPath: base + "/outside"
            )
            try FileManager.default.createSymbolicLink(
                atPath: folder.path + "/link",
                withDestinationPath: base + "/outside/file"
            )
            for (name, folders) in [("file", ["dir"]), ("link", [])] as [(String, ArraySlice<String>)] {
                let read = #expect(throws: FileSystemError.self) { try folder.read(name, in: folders) }
                #expect(read?.isSymbolicLink == true)
            }
            #expect(throws: FileSystemError.self) { try folder.write(Data("in".utf8), as: "new", in: ["dir"]) }
            #expect(try folder.status(of: "link")?.kind == .symbolicLink)
            let refused = #expect(throws: FileSystemError.self) { try folder.remove("link", regularFilesOnly: true) }
            #expect(refused?.isSymbolicLink == true)
            try folder.remove("link")
            #expect(try folder.status(of: "link") == nil)
            #expect(try Data(contentsOf: URL(fileURLWithPath: base + "/outside/file")) == Data("outside".utf8))
            #expect(!FileManager.default.fileExists(atPath: base + "/outside/new"))
        }
    }

    @Test func aPathOpensInOneCallWhereTheKernelCanAndALinkAnywhereOnTheWayIsRefused() async throws {
        try await withFolder { folder, base in
            try folder.write(Data("deep".utf8), as: "f.bin", in: ["a", "b", "c"])
            try ForeignFiles.write(Data("outside".utf8), toPath: base + "/outside/c/f.bin")
            try FileManager.default.createSymbolicLink(
                atPath: folder.path + "/l",
                withDestinationPath: base + "/outside"
            )
            let root = try Descriptor(opening: folder.path, .folder)
            let names = ["a", "b", "c", "f.bin"].map { EntryName($0) }
            #if os(Linux)
            // `openat2` came with Linux 5.6; before it the stores walk, and nil says so.
            let version = ProcessInfo.processInfo.operatingSystemVersion
            guard (version.majorVersion, version.minorVersion) >= (5, 6) else {
                #expect(try root.openBeneath(names, .read) == nil)
                return
            }
            #endif
            let file = try #require(try root.openBeneath(names, .read))
            #expect(try file.readAll() == Data("deep".utf8))
            for linked in [["l", "c", "f.bin"], ["l"]] {
                let error = #expect(throws: FileSystemError.self) {
                    try root.openBeneath(linked.map { EntryName($0) }, .read)
                }
                #expect(error?.isSymbolicLink == true)
                let whole = #expect(throws: FileSystemError.self) {
                    try Descriptor.openPath(folder.path, then: linked, .read, followsNoLink: true)
                }
                #expect(whole?.isSymbolicLink == true)
            }
            let whole = try #require(
                try Descriptor.openPath(folder.path, then: ["a", "b", "c", "f.bin"], .read, followsNoLink: true)
            )
            #expect(try whole.readAll() == Data("deep".utf8))
            // Unlike a path beneath the store folder's descriptor, a whole path refuses a link on the folder's own
            // path too: the store then opens the folder by its path, and the rest beneath it.
            try FileManager.default.createSymbolicLink(atPath: base + "/linked", withDestinationPath: folder.path)
            let linkedBase = #expect(throws: FileSystemError.self) {
                try Descriptor.openPath(base + "/linked", then: ["a", "b", "c", "f.bin"], .read, followsNoLink: true)
            }
            #expect(linkedBase?.isSymbolicLink == true)
            let throughLink = StoreFolder(path: base + "/linked")
            #expect(try throughLink.read("f.bin", in: ["a", "b", "c"]) == Data("deep".utf8))
        }
    }

    @Test(arguments: [true, false]) func aRemovalRemovesTheFoldersItLeavesEmpty(opensPathsInOneCall: Bool) async throws
    {
        try await withFolder(options: Self.options(opensPathsInOneCall: opensPathsInOneCall)) { folder, _ in
            try folder.write(Data("a".utf8), as: "a", in: ["x", "y"])
            try folder.write(Data("b".utf8), as: "b", in: ["x"])
            try folder.remove("a", in: ["x", "y"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/x") == ["b"])
            try folder.remove("b", in: ["x"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
            let missing = #expect(throws: FileSystemError.self) { try folder.remove("b", in: ["x"]) }
            #expect(missing?.isNotFound == true)
        }
    }

    @Test func listingReportsKindsLeavesOutTemporariesAndListsAMissingFolderAsEmpty() async throws {
        try await withFolder { folder, _ in
            try folder.write(Data(), as: "file")
            try folder.write(Data(), as: "inner", in: ["dir"])
            try FileManager.default.createSymbolicLink(atPath: folder.path + "/link", withDestinationPath: "file")
            try ForeignFiles.write(Data(), toPath: folder.path + "/" + TemporaryName.make(for: "file"))
            let entries = try folder.list().sorted { $0.name < $1.name }
            #expect(entries.map(\.name) == ["dir", "file", "link"])
            #expect(entries.map(\.kind) == [.folder, .file, .symbolicLink])
            #expect(try folder.list(in: ["missing"]).isEmpty)
            #expect(try folder.list(in: ["file"]).isEmpty)
        }
    }

    @Test func totalSizeCountsListedFilesAtEveryDepth() async throws {
        try await withFolder { folder, _ in
            #expect(try folder.totalSize() == 0)
            try folder.write(Data(count: 10), as: "a")
            try folder.write(Data(count: 20), as: "b", in: ["x", "y"])
            try ForeignFiles.write(Data(count: 1000), toPath: folder.path + "/" + TemporaryName.make(for: "a"))
            #expect(try folder.totalSize() == 30)
        }
    }

    @Test func removeAllRemovesEverythingDoesNotFollowLinksAndToleratesAbsence() async throws {
        try await withFolder { folder, base in
            try ForeignFiles.write(Data("keep".utf8), toPath: base + "/outside/keep")
            try folder.write(Data("a".utf8), as: "c", in: ["a", "b"])
            try folder.write(Data("d".utf8), as: "d")
            try FileManager.default.createSymbolicLink(
                atPath: folder.path + "/link",
                withDestinationPath: base + "/outside"
            )
            try folder.removeAll()
            #expect(try FileManager.default.contentsOfDirectory(atPath: base) == ["outside"])
            #expect(try Data(contentsOf: URL(fileURLWithPath: base + "/outside/keep")) == Data("keep".utf8))
            try folder.removeAll()
        }
    }

    @Test func removeAllEmptiesALinkedStoreFolderInPlace() async throws {
        try await withFolder { folder, base in
            try ForeignFiles.write(Data("a".utf8), toPath: base + "/real/a/b")
            try FileManager.default.createSymbolicLink(atPath: folder.path, withDestinationPath: base + "/real")
            try folder.removeAll()
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path) == base + "/real")
            #expect(try FileManager.default.contentsOfDirectory(atPath: base + "/real").isEmpty)
        }
    }

    @Test func aGuardedWriteWritesOnlyBesideAnAcceptedGuard() async throws {
        try await withFolder { folder, _ in
            let accepts: (Data) -> Bool = { $0 == Data("mine".utf8) }
            let noFolder = #expect(throws: FileSystemError.self) {
                try folder.write(Data("x".utf8), as: "item", ifFileNamed: "guard", accepts: accepts)
            }
            #expect(noFolder?.isMissing == true)
            try folder.write(Data("theirs".utf8), as: "guard")
            #expect(
                try folder.write(Data("x".utf8), as: "item", ifFileNamed: "guard", accepts: accepts) == .guardRejected
            )
            try folder.remove("guard")
            #expect(
                try folder.write(Data("x".utf8), as: "item", ifFileNamed: "guard", accepts: accepts) == .guardMissing
            )
            try folder.write(Data("mine".utf8), as: "guard")
            #expect(try folder.write(Data("x".utf8), as: "item", ifFileNamed: "guard", accepts: accepts) == .written)
            #expect(try folder.read("item") == Data("x".utf8))
        }
    }

    @Test func exactPermissionsAreSetOnAFolderMadeEarlier() async throws {
        var options = StoreFolder.Options()
        options.folderPermissions = 0o700
        try await withFolder(options: options) { folder, _ in
            #expect(try folder.create(exactPermissions: true))
            try ForeignFiles.setPermissions(0o755, atPath: folder.path)
            #expect(try !folder.create(exactPermissions: true))
            #expect(try ForeignFiles.permissions(atPath: folder.path) == 0o700)
        }
    }
}
