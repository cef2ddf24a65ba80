import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeCore

/// `StoreFolder.remove(_:if:)`: a file is removed only when its contents are accepted, under the folder's exclusive lock,
/// so that no write of a folder that locks its changes lands between the check and the removal.
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
            #expect(seen == [Data("expired".utf8)], "checked once, under the lock")
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

    @Test func theCheckAndTheRemovalHoldTheFoldersExclusiveLock() async throws {
        try await withFolder { folder in
            try folder.write(Data("expired".utf8), as: "a.json")
            var sharedLockTaken: Bool?
            let removed = try folder.remove("a.json") { _ in
                // Another open of the folder, as a write of another process makes: it cannot take its shared lock.
                sharedLockTaken = (try? folder.lockShared()).flatMap { $0 } != nil
                return true
            }
            #expect(removed)
            #expect(sharedLockTaken == false, "a write waits for the removal to end")
            #expect(try folder.lockShared() != nil, "and may go on once it has")
            #expect(try names(in: folder).isEmpty, "no temporary file is made")
        }
    }

    @Test func aWriteFromAnotherThreadDuringTheCheckLandsAfterTheRemoval() async throws {
        try await withTemporaryFolder { base in
            var options = StoreFolder.Options()
            options.locksChanges = true
            let folder = StoreFolder(path: base.path + "/store", options: options)
            try folder.write(Data("expired".utf8), as: "a.json")
            let written = DispatchSemaphore(value: 0)
            let removed = try folder.remove("a.json") { _ in
                DispatchQueue.global()
                    .async {
                        try? folder.write(Data("renewed".utf8), as: "a.json")
                        written.signal()
                    }
                return true
            }
            written.wait()
            #expect(removed, "the expired file was removed")
            #expect(try folder.read("a.json") == Data("renewed".utf8), "the write made meanwhile is kept")
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
