import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeCore

/// `StoreFolder.remove(_:if:)`: a file is removed only when its contents are accepted, and a file written in its place
/// after the check, by anyone, is never removed.
struct StoreFolderConditionalRemovalTests {
    /// A store folder inside a fresh temporary folder.
    private func withFolder(_ body: (StoreFolder) throws -> Void) async throws {
        try await withTemporaryFolder { base in
            try body(StoreFolder(path: base.path + "/store"))
        }
    }

    /// The names in `folder`, temporary ones included, sorted.
    private func names(in folder: StoreFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func anAcceptedFileIsRemovedAndNoTemporaryFileStays() async throws {
        try await withFolder { folder in
            try folder.write(Data("expired".utf8), as: "a.json")
            try folder.write(Data("other".utf8), as: "b.json")
            var seen: [Data] = []
            #expect(
                try folder.remove("a.json") {
                    seen.append($0)
                    return true
                }
            )
            #expect(seen == [Data("expired".utf8), Data("expired".utf8)], "checked before and after it is taken away")
            #expect(try names(in: folder) == ["b.json"])
        }
    }

    @Test func aRefusedFileStaysUntouched() async throws {
        try await withFolder { folder in
            try folder.write(Data("live".utf8), as: "a.json")
            let path = folder.path + "/a.json"
            let before = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
            var calls = 0
            #expect(
                try folder.remove("a.json") { _ in
                    calls += 1
                    return false
                } == false
            )
            #expect(calls == 1, "a file refused at once is not taken away to be read again")
            #expect(try folder.read("a.json") == Data("live".utf8))
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int == before)
            #expect(try names(in: folder) == ["a.json"])
        }
    }

    @Test func nothingThereRemovesNothing() async throws {
        try await withFolder { folder in
            #expect(try folder.remove("a.json") { _ in true } == false, "no folder yet")
            try folder.write(Data("b".utf8), as: "b.json")
            #expect(try folder.remove("a.json") { _ in true } == false, "no file")
        }
    }

    @Test func aWriteThatLandsAfterTheCheckIsPutBack() async throws {
        try await withFolder { folder in
            try folder.write(Data("expired".utf8), as: "a.json")
            var temporaryNames: [String] = []
            let removed = try folder.remove("a.json") { data in
                if data == Data("expired".utf8) {
                    // Another process sets the key between the check and the removal.
                    try? folder.write(Data("renewed".utf8), as: "a.json")
                    return true
                }
                temporaryNames = (try? names(in: folder)) ?? []
                return false
            }
            #expect(removed == false)
            #expect(try folder.read("a.json") == Data("renewed".utf8), "the newer write is kept")
            #expect(try names(in: folder) == ["a.json"], "no temporary file stays")

            let temporary = try #require(temporaryNames.first, "while read again, the file is under a temporary name")
            #expect(temporaryNames.count == 1)
            #expect(TemporaryName.isTemporary(temporary), "a name the leftover sweep recognises")
            #expect(temporary.hasPrefix(TemporaryName.prefix(for: "a.json")))
        }
    }

    @Test func anEvenNewerWriteWinsOverTheOneTakenAway() async throws {
        try await withFolder { folder in
            try folder.write(Data("expired".utf8), as: "a.json")
            let removed = try folder.remove("a.json") { data in
                switch data {
                case Data("expired".utf8):
                    try? folder.write(Data("newer".utf8), as: "a.json")
                    return true
                default:
                    // While `newer` is away under its temporary name, a third write takes the name.
                    try? folder.write(Data("newest".utf8), as: "a.json")
                    return false
                }
            }
            #expect(removed == false)
            #expect(try folder.read("a.json") == Data("newest".utf8), "the name is not taken back from a newer write")
            #expect(try names(in: folder) == ["a.json"], "the file taken away is dropped")
        }
    }

    @Test func aFolderInPlaceOfTheFileFailsAndStays() async throws {
        try await withFolder { folder in
            try folder.write(Data("x".utf8), as: "inner.bin", in: ["a.json"])
            let error = #expect(throws: FileSystemError.self) {
                try folder.remove("a.json") { _ in true }
            }
            #expect(error?.code == EISDIR)
            #expect(try folder.read("inner.bin", in: ["a.json"]) == Data("x".utf8))
        }
    }
}
