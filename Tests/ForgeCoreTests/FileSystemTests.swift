import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeCore

struct FileSystemTests {
    /// Runs `body` with the path of a new, empty folder, removed afterwards.
    private func withFolder(_ body: (String) throws -> Void) async throws {
        try await withTemporaryFolder { folder in try body(folder.path) }
    }

    @Test func atomicWriteReplacesTheFileAndLeavesNoTemporaryFile() async throws {
        try await withFolder { folder in
            let path = folder + "/nested/deeper/file.bin"
            try FileSystem.writeAtomically(Data("old".utf8), toPath: path)
            try FileSystem.writeAtomically(Data("new".utf8), toPath: path)
            #expect(try FileSystem.readFile(atPath: path) == Data("new".utf8))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/nested/deeper") == ["file.bin"])
        }
    }

    @Test func exclusiveWriteFailsWithEEXISTAndKeepsTheFile() async throws {
        try await withFolder { folder in
            let path = folder + "/file"
            var options = FileSystem.WriteOptions()
            options.replaceExisting = false
            try FileSystem.writeAtomically(Data("first".utf8), toPath: path, options: options)
            let error = #expect(throws: FileSystemError.self) {
                try FileSystem.writeAtomically(Data("second".utf8), toPath: path, options: options)
            }
            #expect(error?.isAlreadyExists == true)
            #expect(try FileSystem.readFile(atPath: path) == Data("first".utf8))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["file"])
        }
    }

    @Test func permissionsAreApplied() async throws {
        try await withFolder { folder in
            var options = FileSystem.WriteOptions()
            options.permissions = 0o600
            try FileSystem.writeAtomically(Data("secret".utf8), toPath: folder + "/s", options: options)
            let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/s")
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        }
    }

    @Test func emptyAndLargeFilesRoundTrip() async throws {
        try await withFolder { folder in
            try FileSystem.writeAtomically(Data(), toPath: folder + "/empty")
            #expect(try FileSystem.readFile(atPath: folder + "/empty").isEmpty)
            let large = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            try FileSystem.writeAtomically(large, toPath: folder + "/large")
            #expect(try FileSystem.readFile(atPath: folder + "/large") == large)
        }
    }

    @Test func readingAMissingFileIsNotFound() async throws {
        try await withFolder { folder in
            let error = #expect(throws: FileSystemError.self) { try FileSystem.readFile(atPath: folder + "/none") }
            #expect(error?.isNotFound == true)
            #expect(error?.description.contains(folder + "/none") == true)
        }
    }

    @Test func readingByFolderAndNameReadsTheJoinedPath() async throws {
        try await withFolder { folder in
            let name = String(repeating: "n", count: 255)
            try FileSystem.writeAtomically(Data("joined".utf8), toPath: folder + "/" + name)
            #expect(try FileSystem.readFile(named: name, inFolder: folder) == Data("joined".utf8))
            let error = #expect(throws: FileSystemError.self) {
                try FileSystem.readFile(named: "none", inFolder: folder)
            }
            #expect(error?.isNotFound == true)
            #expect(error?.description.contains(folder + "/none") == true)
        }
    }

    @Test func writingUnderAFileFailsWithATypedError() async throws {
        try await withFolder { folder in
            try FileSystem.writeAtomically(Data("x".utf8), toPath: folder + "/file")
            #expect(throws: FileSystemError.self) {
                try FileSystem.writeAtomically(Data("y".utf8), toPath: folder + "/file/child")
            }
        }
    }

    @Test func removeDirectoryTreeRemovesEverythingAndToleratesAbsence() async throws {
        try await withFolder { folder in
            try FileSystem.writeAtomically(Data("a".utf8), toPath: folder + "/tree/a/b/c")
            try FileSystem.writeAtomically(Data("d".utf8), toPath: folder + "/tree/d")
            try FileSystem.removeDirectoryTree(atPath: folder + "/tree")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
            try FileSystem.removeDirectoryTree(atPath: folder + "/tree")
        }
    }

    @Test func removeDirectoryTreeDoesNotFollowSymbolicLinks() async throws {
        try await withFolder { folder in
            try FileSystem.writeAtomically(Data("keep".utf8), toPath: folder + "/outside/keep")
            try FileSystem.createDirectories(atPath: folder + "/tree")
            try FileManager.default.createSymbolicLink(
                atPath: folder + "/tree/link",
                withDestinationPath: folder + "/outside"
            )
            try FileSystem.removeDirectoryTree(atPath: folder + "/tree")
            #expect(try FileSystem.readFile(atPath: folder + "/outside/keep") == Data("keep".utf8))
        }
    }

    @Test func listingReportsKinds() async throws {
        try await withFolder { folder in
            try FileSystem.writeAtomically(Data(), toPath: folder + "/file")
            try FileSystem.createDirectories(atPath: folder + "/dir")
            try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: folder + "/file")
            let entries = try FileSystem.listDirectory(atPath: folder).sorted { $0.name < $1.name }
            #expect(entries.map(\.name) == ["dir", "file", "link"])
            #expect(entries.map(\.kind) == [.directory, .file, .symbolicLink])
            #expect(try FileSystem.listDirectory(atPath: folder + "/missing").isEmpty)
        }
    }

    @Test func onlyTemporaryFilesOfDeadProcessesAreOrphans() throws {
        let live = ".x\(FileSystem.temporaryMarker)\(getpid())-abc"
        #expect(!FileSystem.isOrphanedTemporaryFile(named: live))
        #expect(!FileSystem.isOrphanedTemporaryFile(named: "x.json"))
        #expect(!FileSystem.isOrphanedTemporaryFile(named: ".x\(FileSystem.temporaryMarker)notapid-abc"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        #expect(
            FileSystem.isOrphanedTemporaryFile(named: ".x\(FileSystem.temporaryMarker)\(process.processIdentifier)-abc")
        )
    }

    @Test func temporaryNamesAreHiddenMarkedAndShort() {
        let temporary = FileSystem.temporaryName(for: String(repeating: "n", count: 250))
        #expect(temporary.hasPrefix("."))
        #expect(FileSystem.isTemporaryName(temporary))
        #expect(temporary.utf8.count <= 255)
    }

    @Test func temporaryNamesKeepWholeScalarsOfTheNameThenThisProcessAndARandomPart() throws {
        // 1 + 4 × 20 bytes: the 64-byte cut falls inside the sixteenth emoji, which is left out whole.
        let name = "a" + String(repeating: "📄", count: 20)
        let prefix = "." + "a" + String(repeating: "📄", count: 15) + FileSystem.temporaryMarker
        #expect(FileSystem.temporaryNamePrefix(for: name) == prefix)

        let temporary = FileSystem.temporaryName(for: name)
        let suffix = try #require(temporary.utf8.count > prefix.utf8.count ? temporary.dropFirst(prefix.count) : nil)
        let parts = suffix.split(separator: "-")
        #expect(temporary.hasPrefix(prefix))
        #expect(parts.count == 2)
        #expect(parts.first.flatMap { Int32($0) } == getpid())
        #expect(parts.last.map { !$0.isEmpty && $0.allSatisfy { $0.isNumber || ("a"..."z").contains($0) } } == true)
        #expect(FileSystem.temporaryName(for: name) != temporary)
    }

    @Test func temporaryNamesKeepANameOfSixtyFourBytesWhole() {
        let ascii = String(repeating: "n", count: 64)
        #expect(FileSystem.temporaryNamePrefix(for: ascii) == "." + ascii + FileSystem.temporaryMarker)
        #expect(FileSystem.temporaryNamePrefix(for: ascii + "x") == "." + ascii + FileSystem.temporaryMarker)
        // A two-byte scalar that ends exactly at byte 64 is kept; one that would end at byte 65 is not.
        let even = String(repeating: "é", count: 32)
        #expect(FileSystem.temporaryNamePrefix(for: even + "é") == "." + even + FileSystem.temporaryMarker)
        let odd = "n" + String(repeating: "é", count: 31)
        #expect(FileSystem.temporaryNamePrefix(for: odd + "é") == "." + odd + FileSystem.temporaryMarker)
    }

    @Test func aMarkerInsideTheOriginalNameDoesNotMakeALiveTemporaryLookOrphaned() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        let crafted = "a\(FileSystem.temporaryMarker)\(process.processIdentifier)-x"
        #expect(!FileSystem.isOrphanedTemporaryFile(named: FileSystem.temporaryName(for: crafted)))
    }

    @Test func removeDirectoryTreeEmptiesALinkedFolderInPlace() async throws {
        try await withFolder { folder in
            try FileSystem.writeAtomically(Data("a".utf8), toPath: folder + "/real/a/b")
            try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: folder + "/real")
            try FileSystem.removeDirectoryTree(atPath: folder + "/link")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link") == folder + "/real")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/real").isEmpty)
        }
    }

    @Test func splitSeparatesTheFolderFromTheName() {
        #expect(FileSystem.split("/a/b") == ("/a", "b"))
        #expect(FileSystem.split("/b") == ("/", "b"))
        #expect(FileSystem.split("b") == (".", "b"))
        #expect(FileSystem.split("/a/caf\u{E9}") == ("/a", "caf\u{E9}"))
        #expect(FileSystem.split("/") == ("/", ""))
        #expect(FileSystem.split("a/") == ("a", ""))
        #expect(FileSystem.split("") == (".", ""))
        #expect(FileSystem.parentPath(of: "/a/b") == "/a")
        #expect(FileSystem.parentPath(of: "/") == "/")
        #expect(FileSystem.parentPath(of: "b") == ".")
    }

    @Test func aWriteByFolderAndNameTakesOneNameOnly() async throws {
        try await withFolder { folder in
            for name in ["", "a/b"] {
                #expect {
                    try FileSystem.writeAtomically(Data("x".utf8), named: name, inFolder: folder)
                } throws: { error in
                    (error as? FileSystemError)?.code == EINVAL
                }
            }
            try FileSystem.writeAtomically(Data("x".utf8), named: "a", inFolder: folder)
            #expect(try FileSystem.readFile(named: "a", inFolder: folder) == Data("x".utf8))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["a"])
        }
    }
}
