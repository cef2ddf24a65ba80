import ForgeCore
import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeFileStore

/// What a `DiskFileStore`'s change streams see of what other programs do in its folder, and what they leave behind.
@Suite(.enabled(if: FolderWatch.isSupported, "no folder notifications on this platform"))
struct DiskFileStoreChangesTests {
    @Test func aThousandStreamsStartedAndEndedLeaveNoWatchOrDescriptor() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskFileStore(directory: .custom(folder), namespace: "files")
            let path = store.folderURL.path
            var live: [AsyncStream<FileChange>] = []
            for index in 0..<1_000 { live.append(try store.changes(in: index.isMultiple(of: 2) ? "" : "docs")) }
            #expect(FolderWatch.openDescriptorCount(for: path) == 1, "one watch, however many streams")
            live.removeAll()
            #expect(!FolderWatch.isWatching(path))
            for _ in 0..<1_000 where FolderWatch.openDescriptorCount(for: path) > 0 {
                await FolderWatch.stoppedWatchesClosed()
            }
            #expect(FolderWatch.openDescriptorCount(for: path) == 0)
        }
    }

    /// More folders than the 128 inotify instances a user may have by default: the process's watches share one.
    @Test func twoHundredStoresWatchedAtOnceEachSeeTheirOwnChanges() async throws {
        try await withTemporaryFolder { folder in
            let stores = (0..<200).map { DiskFileStore(directory: .custom(folder), namespace: "store-\($0)") }
            let readers = try stores.map { StreamReader(try $0.changes(in: "")) }
            for (index, store) in stores.enumerated() { try await store.save(Data("x".utf8), to: "own-\(index).txt") }
            for (index, reader) in readers.enumerated() {
                #expect(await reader.next() == .created("own-\(index).txt"))
            }
        }
    }

    @Test func aFolderMovedInOrOutByAnotherProgramIsToldAsItsFiles() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskFileStore(directory: .custom(folder), namespace: "files")
            try await store.save(Data("x".utf8), to: "keep.txt")
            let changes = StreamReader(try store.changes(in: ""))
            let outside = folder.appendingPathComponent("outside/batch/inner")
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            try Data("1".utf8).write(to: outside.appendingPathComponent("one.txt"))
            try Data("2".utf8).write(to: outside.deletingLastPathComponent().appendingPathComponent("two.txt"))

            let moved = store.folderURL.appendingPathComponent("batch")
            try FileManager.default.moveItem(at: outside.deletingLastPathComponent(), to: moved)
            #expect(await changes.next(2) == [.created("batch/inner/one.txt"), .created("batch/two.txt")])
            try await store.save(Data("3".utf8), to: "batch/inner/three.txt")
            #expect(await changes.next() == .created("batch/inner/three.txt"), "the moved-in folder is watched")

            try FileManager.default.moveItem(at: moved, to: folder.appendingPathComponent("away"))
            #expect(
                await changes.next(3) == [
                    .deleted("batch/inner/one.txt"), .deleted("batch/inner/three.txt"), .deleted("batch/two.txt"),
                ]
            )
            try Data("4".utf8).write(to: folder.appendingPathComponent("away/inner/four.txt"))
            try await store.save(Data("5".utf8), to: "after.txt")
            #expect(await changes.next() == .created("after.txt"), "nothing from the folder moved away")
        }
    }

    @Test func aLinkPlantedInTheFolderIsNotFollowed() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskFileStore(directory: .custom(folder), namespace: "files")
            let outside = folder.appendingPathComponent("outside")
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            try await store.save(Data("x".utf8), to: "first.txt")
            try FileManager.default.createSymbolicLink(
                at: store.folderURL.appendingPathComponent("link"),
                withDestinationURL: outside
            )
            let changes = StreamReader(try store.changes(in: ""))
            try Data("secret".utf8).write(to: outside.appendingPathComponent("secret.txt"))
            try FileManager.default.createSymbolicLink(
                at: store.folderURL.appendingPathComponent("file-link.txt"),
                withDestinationURL: outside.appendingPathComponent("secret.txt")
            )
            try await store.save(Data("y".utf8), to: "second.txt")
            #expect(await changes.next() == .created("second.txt"), "no change through or of a link is told")
        }
    }

    @Test func filesAnotherProgramNamesInNFDOrRewritesInPlaceAreTold() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskFileStore(directory: .custom(folder), namespace: "files")
            try await store.save(Data("x".utf8), to: "plain.txt")
            let changes = StreamReader(try store.changes(in: ""))
            let decomposed = "Cafe\u{301}.txt"
            let written = folder.appendingPathComponent("written.txt")
            try Data("x".utf8).write(to: written)
            try FileManager.default.moveItem(at: written, to: store.folderURL.appendingPathComponent(decomposed))
            #expect(await changes.next() == .created("Caf\u{E9}.txt"), "told by the name the store lists")

            let handle = try FileHandle(forWritingTo: store.folderURL.appendingPathComponent("plain.txt"))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("more".utf8))
            try handle.close()
            #expect(await changes.next() == .modified("plain.txt"))
        }
    }

    @Test func aStoreMadeAfterTheStreamOnAFolderThatDidNotExistIsSeen() async throws {
        try await withTemporaryFolder { folder in
            let base = folder.appendingPathComponent("base")
            try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
            let store = DiskFileStore(directory: .custom(base), namespace: "files")
            let changes = StreamReader(try store.changes(in: "deep/er"))
            try await DiskFileStore(directory: .custom(base), namespace: "files")
                .save(Data("x".utf8), to: "deep/er/a.txt")
            #expect(await changes.next() == .created("deep/er/a.txt"))
        }
    }

    @Test func aBaseFolderMissingAtTheStartIsWatchedWhenItIsMade() async throws {
        try await withTemporaryFolder { folder in
            let base = folder.appendingPathComponent("not/there/yet")
            let changes = StreamReader(
                try DiskFileStore(directory: .custom(base), namespace: "files").changes(in: "docs")
            )
            try await DiskFileStore(directory: .custom(base), namespace: "files").save(Data("x".utf8), to: "docs/a.txt")
            #expect(await changes.next() == .created("docs/a.txt"))
        }
    }

    @Test func aBaseFolderRemovedAndMadeAgainIsStillWatched() async throws {
        try await withTemporaryFolder { folder in
            let base = folder.appendingPathComponent("base")
            let store = DiskFileStore(directory: .custom(base), namespace: "files")
            try await store.save(Data("x".utf8), to: "a.txt")
            let changes = StreamReader(try store.changes(in: ""))
            try FileManager.default.removeItem(at: base)
            #expect(await changes.next() == .deleted("a.txt"))
            try await store.save(Data("y".utf8), to: "b.txt")
            #expect(await changes.next() == .created("b.txt"), "the folders made again are watched")
        }
    }
}
