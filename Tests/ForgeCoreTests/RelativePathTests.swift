import ForgeCore
import Foundation
import Testing

struct RelativePathTests {
    @Test func aValidPathIsSplitIntoItsNames() throws {
        let path = try RelativePath(validating: "docs/2025/report.pdf")
        #expect(path.string == "docs/2025/report.pdf")
        #expect(path.components == ["docs", "2025", "report.pdf"])
        #expect(path.ancestors == ["docs", "docs/2025"])
    }

    @Test func pathsAreKeptInNFC() throws {
        let path = try RelativePath(validating: "cafe\u{301}/x")
        #expect(Array(path.string.utf8) == Array("caf\u{E9}/x".utf8))
        #expect(path.components.map { Array($0.utf8) } == [Array("caf\u{E9}".utf8), Array("x".utf8)])
    }

    @Test func aPathOfOneNameIsItsOwnOnlyName() throws {
        let ascii = try RelativePath(validating: "report.pdf")
        #expect(ascii.components == ["report.pdf"])
        #expect(ascii.ancestors.isEmpty)
        let accented = try RelativePath(validating: "re\u{301}sume\u{301}.txt")
        #expect(accented.components.map { Array($0.utf8) } == [Array("r\u{E9}sum\u{E9}.txt".utf8)])
        #expect(try RelativePath(validating: "...").components == ["..."])
        #expect(try RelativePath(validating: ".hidden").components == [".hidden"])
        #expect(throws: RelativePath.Violation.dotName("..")) { try RelativePath(validating: "..") }
        #expect(throws: RelativePath.Violation.containsNUL) { try RelativePath(validating: "caf\u{E9}\u{0}") }
    }

    @Test func folderPathsAllowTheRootAndOneTrailingSlash() throws {
        #expect(try RelativePath(validatingFolder: "").isRoot)
        #expect(try RelativePath(validatingFolder: "docs/").string == "docs")
        #expect(try RelativePath(validatingFolder: "docs").appending("a.txt") == "docs/a.txt")
        #expect(throws: RelativePath.Violation.emptyName) { try RelativePath(validatingFolder: "docs//") }
        #expect(throws: RelativePath.Violation.absolute) { try RelativePath(validatingFolder: "/") }
    }

    @Test func violationsAreNamed() {
        #expect(throws: RelativePath.Violation.empty) { try RelativePath(validating: "") }
        #expect(throws: RelativePath.Violation.absolute) { try RelativePath(validating: "/a") }
        #expect(throws: RelativePath.Violation.containsNUL) { try RelativePath(validating: "a\u{0}") }
        #expect(throws: RelativePath.Violation.dotName("..")) { try RelativePath(validating: "a/../b") }
        #expect(throws: RelativePath.Violation.dotName(".")) { try RelativePath(validating: "./b") }
        #expect(throws: RelativePath.Violation.emptyName) { try RelativePath(validating: "a/") }
        #expect(throws: RelativePath.Violation.tooLong(byteCount: 1025)) {
            try RelativePath(validating: String(repeating: "a/", count: 512) + "b")
        }
        let long = String(repeating: "n", count: 256)
        #expect(throws: RelativePath.Violation.nameTooLong(long)) { try RelativePath(validating: long) }
        #expect(throws: RelativePath.Violation.reservedName(".a.forge-tmp-1-x")) {
            try RelativePath(validating: ".a.forge-tmp-1-x")
        }
    }

    @Test func aPathOfManyNamesKeepsEachInOrder() throws {
        let names = (0..<100).map { "n\($0)" }
        let path = try RelativePath(validating: names.joined(separator: "/"))
        #expect(path.components == names)
        #expect(path.ancestors.count == 99)
        #expect(path.ancestors.last == names.dropLast().joined(separator: "/"))
        #expect(throws: RelativePath.Violation.emptyName) {
            try RelativePath(validating: names.joined(separator: "/") + "/")
        }
    }

    @Test func aFolderPathWithATrailingSlashIsTheFolder() throws {
        let folder = try RelativePath(validatingFolder: "a/b/c/")
        #expect(folder.string == "a/b/c")
        #expect(folder.components == ["a", "b", "c"])
        #expect(folder == (try RelativePath(validatingFolder: "a/b/c")))
        #expect(throws: RelativePath.Violation.dotName("..")) { try RelativePath(validatingFolder: "a/../") }
    }

    @Test func aSlashBeforeACombiningMarkStillSeparatesNames() throws {
        // "/" and a combining accent make one Character, but the names on disk are split at the "/".
        let path = try RelativePath(validating: "a/\u{301}b")
        #expect(path.components.map { Array($0.utf8) } == [Array("a".utf8), Array("\u{301}b".utf8)])
        #expect(throws: RelativePath.Violation.absolute) { try RelativePath(validating: "/\u{301}a") }
        #expect(throws: RelativePath.Violation.dotName("..")) { try RelativePath(validating: "../\u{301}") }
        #expect(try RelativePath(validating: "a/.\u{301}").components.count == 2)
    }

    @Test func temporaryNamesFitNAMEMAXWhateverTheName() {
        let name = String(repeating: "📄", count: 63)
        let temporary = TemporaryName.make(for: name)
        #expect(temporary.utf8.count < 120)
        #expect(TemporaryName.isTemporary(temporary))
        #expect(temporary.hasPrefix(TemporaryName.prefix(for: name)))
        #expect(!TemporaryName.isOrphaned(temporary))
    }
}
