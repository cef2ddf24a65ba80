import Foundation
import Testing

@testable import ForgeCore

struct TemporaryNameTests {
    @Test func onlyTemporaryNamesOfDeadProcessesAreOrphans() throws {
        let live = ".x\(TemporaryName.marker)\(ProcessInfo.processInfo.processIdentifier)-abc"
        #expect(!TemporaryName.isOrphaned(live))
        #expect(!TemporaryName.isOrphaned("x.json"))
        #expect(!TemporaryName.isOrphaned(".x\(TemporaryName.marker)notapid-abc"))
        #expect(TemporaryName.isOrphaned(".x\(TemporaryName.marker)\(try Self.deadProcessID())-abc"))
    }

    @Test func temporaryNamesAreHiddenMarkedAndShort() {
        let temporary = TemporaryName.make(for: String(repeating: "n", count: 250))
        #expect(temporary.hasPrefix("."))
        #expect(TemporaryName.isTemporary(temporary))
        #expect(temporary.utf8.count <= 255)
    }

    @Test func temporaryNamesKeepWholeScalarsOfTheNameThenThisProcessAndARandomPart() throws {
        // 1 + 4 × 20 bytes: the 64-byte cut falls inside the sixteenth emoji, which is left out whole.
        let name = "a" + String(repeating: "📄", count: 20)
        let prefix = "." + "a" + String(repeating: "📄", count: 15) + TemporaryName.marker
        #expect(TemporaryName.prefix(for: name) == prefix)

        let temporary = TemporaryName.make(for: name)
        let suffix = try #require(temporary.utf8.count > prefix.utf8.count ? temporary.dropFirst(prefix.count) : nil)
        let parts = suffix.split(separator: "-")
        #expect(temporary.hasPrefix(prefix))
        #expect(parts.count == 2)
        #expect(parts.first.flatMap { Int32($0) } == ProcessInfo.processInfo.processIdentifier)
        #expect(parts.last.map { !$0.isEmpty && $0.allSatisfy { $0.isNumber || ("a"..."z").contains($0) } } == true)
        #expect(TemporaryName.make(for: name) != temporary)
    }

    @Test func temporaryNamesKeepANameOfSixtyFourBytesWhole() {
        let ascii = String(repeating: "n", count: 64)
        #expect(TemporaryName.prefix(for: ascii) == "." + ascii + TemporaryName.marker)
        #expect(TemporaryName.prefix(for: ascii + "x") == "." + ascii + TemporaryName.marker)
        // A two-byte scalar that ends exactly at byte 64 is kept; one that would end at byte 65 is not.
        let even = String(repeating: "é", count: 32)
        #expect(TemporaryName.prefix(for: even + "é") == "." + even + TemporaryName.marker)
        let odd = "n" + String(repeating: "é", count: 31)
        #expect(TemporaryName.prefix(for: odd + "é") == "." + odd + TemporaryName.marker)
    }

    @Test func aMarkerInsideTheOriginalNameDoesNotMakeALiveTemporaryLookOrphaned() throws {
        let crafted = "a\(TemporaryName.marker)\(try Self.deadProcessID())-x"
        #expect(!TemporaryName.isOrphaned(TemporaryName.make(for: crafted)))
    }

    /// The id of a process that has just ended.
    private static func deadProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }
}
