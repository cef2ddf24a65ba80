import ForgeFileStore
import ForgeStorageTesting
import Foundation
import Synchronization
import Testing

/// The twin, whose next write or removal at a path (once held) stops before it reaches the store, until the test lets
/// it go: a point the test controls in the middle of a cache's save.
///
/// A read or a listing (of every file, at the path "") is held after it read the store.
final class HoldingFileStore: FileStoring, AsyncFileStoring, FileBackend {
    /// A call that can be held.
    enum Call: Sendable { case write, remove, read, list }

    /// A held call, which goes on when `release` opens.
    ///
    /// `arrived` opens when it reaches the hold. A write or removal
    /// is held before it changes the store, a read after it read the store.
    final class Hold: Sendable {
        let arrived = OpeningLatch()
        let release = OpeningLatch()
    }

    let base = InMemoryFileStore()
    private let holds = Mutex<[String: Hold]>([:])

    /// Holds the next `call` at `path`.
    func hold(_ call: Call, at path: String) -> Hold {
        let hold = Hold()
        holds.withLock { $0["\(call) \(path)"] = hold }
        return hold
    }

    private nonisolated(nonsending) func pass(_ call: Call, at path: StoredFilePath) async {
        await pass(call, at: path.string)
    }

    private nonisolated(nonsending) func pass(_ call: Call, at path: String) async {
        guard let hold = holds.withLock({ $0.removeValue(forKey: "\(call) \(path)") }) else { return }
        hold.arrived.open()
        await hold.release.wait()
    }

    nonisolated(nonsending) func contents(at path: StoredFilePath) async throws -> Data? {
        let data = try base.contents(at: path)
        await pass(.read, at: path)
        return data
    }
    nonisolated(nonsending) func write(_ data: Data, at path: StoredFilePath, replacing: Bool) async throws {
        await pass(.write, at: path)
        try base.write(data, at: path, replacing: replacing)
    }
    nonisolated(nonsending) func removeFile(at path: StoredFilePath) async throws -> Bool {
        await pass(.remove, at: path)
        return try base.removeFile(at: path)
    }
    func hasFile(at path: StoredFilePath) -> Bool { base.hasFile(at: path) }
    func storedFileInfo(at path: StoredFilePath) throws -> StoredFileInfo? { base.storedFileInfo(at: path) }
    nonisolated(nonsending) func entryNames(in folder: StoredFilePath) async throws -> [String] {
        try base.entryNames(in: folder)
    }
    nonisolated(nonsending) func removeAll() async throws { try base.removeAll() }
    nonisolated(nonsending) func storedSize() async throws -> Int { try base.storedSize() }
    nonisolated(nonsending) func allFiles() async throws -> [StoredFileInfo] {
        let files = try await base.allFiles()
        await pass(.list, at: "")
        return files
    }
}

/// A bounded cache's count follows the order in which its changes land.
///
/// Calls on one path land in the order they were made, `deleteAll()` after the saves in progress, and a load never
/// brings back a file chosen for removal. Each test
/// holds a call at a point it controls, makes the call that once broke the count, and checks that the cache counts
/// what the store holds and keeps its budget on the next save.
struct BoundedFileStoreOrderingTests {
    static func bytes(_ count: Int, _ value: UInt8 = 1) -> Data { Data(repeating: value, count: count) }

    /// Checks that the cache counts what the store holds, then that a save of `probe` bytes keeps the budget.
    static func expectCountMatches(
        _ cache: BoundedFileStore<HoldingFileStore>,
        probe: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let stored = try cache.base.base.storedSize()
        let files = try await cache.base.base.allFiles().count
        #expect(cache.counted?.bytes == stored, "bytes counted", sourceLocation: sourceLocation)
        #expect(cache.counted?.files == files, "files counted", sourceLocation: sourceLocation)
        try await cache.save(bytes(probe, 9), to: "probe")
        #expect(try await cache.totalSize() <= cache.maxBytes, "after the next save", sourceLocation: sourceLocation)
    }

    /// Two saves of one path at once: the later one waits for the earlier one's write, and its file is the one kept
    /// and counted.
    @Test func twoSavesOfOnePathLandInTheOrderTheyWereMade() async throws {
        let store = HoldingFileStore()
        let cache = store.boundedCache(maxBytes: 1000)
        try await cache.save(Self.bytes(10), to: "start")  // the cache knows its files from here
        let hold = store.hold(.write, at: "p")
        let first = Task { try await cache.save(Self.bytes(900, 1), to: "p") }
        await hold.arrived.wait()
        let second = Task { try await cache.save(Self.bytes(100, 2), to: "p") }
        await cache.turns.waitUntilQueued(1)  // the second save waits for the first
        hold.release.open()
        try await first.value
        try await second.value
        #expect(try await cache.load("p") == Self.bytes(100, 2), "the later save's file is kept")
        try await Self.expectCountMatches(cache, probe: 500)
    }

    /// A load during a save of the same path reads the old file, and the cache still counts the new one.
    @Test func aLoadDuringASaveOfThePathKeepsTheSavesCount() async throws {
        let store = HoldingFileStore()
        let cache = store.boundedCache(maxBytes: 1000)
        try await cache.save(Self.bytes(100, 1), to: "p")
        let hold = store.hold(.write, at: "p")
        let save = Task { try await cache.save(Self.bytes(900, 2), to: "p") }
        await hold.arrived.wait()
        #expect(try await cache.load("p") == Self.bytes(100, 1), "the old file, while the new one is not written")
        hold.release.open()
        try await save.value
        try await Self.expectCountMatches(cache, probe: 500)
    }

    /// `deleteAll()` while a save is in flight waits for it, and removes its file too.
    @Test func deleteAllLandsAfterTheSavesInProgress() async throws {
        let store = HoldingFileStore()
        let cache = store.boundedCache(maxBytes: 1000)
        try await cache.save(Self.bytes(50), to: "old")
        let hold = store.hold(.write, at: "p")
        let save = Task { try await cache.save(Self.bytes(900), to: "p") }
        await hold.arrived.wait()
        let clear = Task { try await cache.deleteAll() }
        await cache.turns.waitUntilQueued(1)
        hold.release.open()
        try await save.value
        try await clear.value
        #expect(try await store.base.allFiles().isEmpty, "the save landed before deleteAll, which removed it")
        try await Self.expectCountMatches(cache, probe: 500)
    }

    /// A load that found no file before a `deleteAll()` does not forget the file saved after it: the cache's use
    /// numbers go on across `deleteAll()`, so the load tells that save from a file it found gone.
    @Test func aLoadThatFoundNothingBeforeDeleteAllKeepsTheFileSavedAfter() async throws {
        let store = HoldingFileStore()
        let cache = store.boundedCache(maxBytes: 1000)
        for index in 0..<5 { try await cache.save(Self.bytes(10), to: "f\(index)") }  // five uses so far
        let hold = store.hold(.read, at: "p")
        let load = Task { try await cache.load("p") }
        await hold.arrived.wait()  // the load found no file at p
        try await cache.deleteAll()
        try await cache.save(Self.bytes(300), to: "p")
        hold.release.open()
        await #expect(throws: FileStoreError.self) { try await load.value }
        try await Self.expectCountMatches(cache, probe: 800)
    }

    /// A load that found no file while a save of the path was about to write it does not forget the file the save
    /// wrote: the save's landing is a use after the load began. (It once did: the load, begun after the save made room,
    /// compared only the use the save made room at, and the cache counted one file fewer than the store held.)
    @Test func aLoadThatFoundNothingBeforeTheSaveOfThePathLandedKeepsItsFile() async throws {
        let store = HoldingFileStore()
        let cache = store.boundedCache(maxBytes: 1000)
        try await cache.save(Self.bytes(10), to: "start")  // the cache knows its files from here
        let writeHold = store.hold(.write, at: "p")
        let save = Task { try await cache.save(Self.bytes(300), to: "p") }
        await writeHold.arrived.wait()  // the save made room for p, which is not written yet
        let readHold = store.hold(.read, at: "p")
        let load = Task { try await cache.load("p") }
        await readHold.arrived.wait()  // the load found no file at p
        writeHold.release.open()
        try await save.value  // p is written, and the save has ended
        readHold.release.open()
        await #expect(throws: FileStoreError.notFound(path: "p")) { try await load.value }
        try await Self.expectCountMatches(cache, probe: 600)
    }

    /// A delete that lands while the cache first lists a store that holds files (a disk cache after a restart) is not
    /// counted: the listing, read before the delete, is installed without the file it removed. (It once was: the cache
    /// counted the deleted file's 100 bytes on top of what the store held, until it chose the file for removal.)
    @Test func aDeleteWhileTheCacheListsItsStoreIsNotCounted() async throws {
        let store = HoldingFileStore()
        try await store.base.save(Self.bytes(100, 1), to: "old")  // stored before this cache was made
        let cache = store.boundedCache(maxBytes: 1000)
        let listHold = store.hold(.list, at: "")
        let save = Task { try await cache.save(Self.bytes(10, 2), to: "new") }
        await listHold.arrived.wait()  // the save's listing read "old"
        try await cache.delete("old")
        listHold.release.open()
        try await save.value
        #expect(try await cache.list(in: "") == ["new"])
        try await Self.expectCountMatches(cache, probe: 500)
    }

    /// A file chosen for removal that a delete removed, and whose path a save then made a folder, is not counted again
    /// when its removal finds the folder, nor does it fail the save that chose it. (It once was, and did: the cache
    /// counted the removed file's 400 bytes on top of what the store held.)
    @Test func aFileChosenForRemovalWhosePathBecameAFolderIsGone() async throws {
        let store = HoldingFileStore()
        let cache = store.boundedCache(maxBytes: 1000)
        try await cache.save(Self.bytes(400, 1), to: "v")  // the least recently used
        try await cache.save(Self.bytes(400, 2), to: "w")
        let deleteHold = store.hold(.remove, at: "v")
        let delete = Task { try await cache.delete("v") }
        await deleteHold.arrived.wait()  // the delete holds the turn of v, before it removes the file
        let save = Task { try await cache.save(Self.bytes(500, 3), to: "a") }  // chooses v to make room
        await cache.turns.waitUntilQueued(1)  // and waits for v's turn
        let removalHold = store.hold(.remove, at: "v")
        deleteHold.release.open()
        try await delete.value
        await removalHold.arrived.wait()  // the save's removal of v, the file already gone
        try await cache.save(Self.bytes(10, 4), to: "v/x")  // v is a folder now
        removalHold.release.open()
        try await save.value
        #expect(try await cache.list(in: "") == ["a", "v/", "w"])
        try await Self.expectCountMatches(cache, probe: 50)
    }

    /// A load of a file chosen for removal, before it is removed, reads it but does not keep it: the save removes it.
    @Test func aLoadOfAFileChosenForRemovalDoesNotKeepIt() async throws {
        let store = HoldingFileStore()
        let cache = store.boundedCache(maxBytes: 200)
        try await cache.save(Self.bytes(100, 1), to: "a")  // the least recently used
        try await cache.save(Self.bytes(100, 2), to: "b")
        let hold = store.hold(.remove, at: "a")
        let save = Task { try await cache.save(Self.bytes(100, 3), to: "c") }
        await hold.arrived.wait()
        #expect(try await cache.load("a") == Self.bytes(100, 1), "still there: its removal is held")
        hold.release.open()
        try await save.value
        #expect(try await cache.list(in: "") == ["b", "c"])
        #expect(try await cache.totalSize() <= 200)
        try await Self.expectCountMatches(cache, probe: 100)
    }

    /// A save of a file chosen for removal waits for the removal, then lands: the new file is kept and counted.
    @Test func aSaveOfAFileBeingRemovedLandsAfterTheRemoval() async throws {
        let store = HoldingFileStore()
        let cache = store.boundedCache(maxBytes: 200)
        try await cache.save(Self.bytes(100, 1), to: "a")
        try await cache.save(Self.bytes(100, 2), to: "b")
        let hold = store.hold(.remove, at: "a")
        let save = Task { try await cache.save(Self.bytes(100, 3), to: "c") }
        await hold.arrived.wait()
        let again = Task { try await cache.save(Self.bytes(50, 4), to: "a") }
        await cache.turns.waitUntilQueued(1)
        hold.release.open()
        try await save.value
        try await again.value
        #expect(try await cache.load("a") == Self.bytes(50, 4), "the save made after the removal is kept")
        #expect(try await cache.totalSize() <= 200)
        try await Self.expectCountMatches(cache, probe: 100)
    }

    /// While a save is held before removing the file it chose, that file's room is given to no other save: the
    /// store never holds more than the budget.
    @Test func roomNotYetFreedIsGivenToNoOtherSave() async throws {
        let store = HoldingFileStore()
        let cache = store.boundedCache(maxBytes: 150)
        try await cache.save(Self.bytes(100, 1), to: "a")  // the least recently used
        try await cache.save(Self.bytes(50, 2), to: "b")
        let hold = store.hold(.remove, at: "a")
        let save = Task { try await cache.save(Self.bytes(10, 3), to: "c") }  // removes a, which is held
        await hold.arrived.wait()
        // a is still stored: d's save must remove b, though c needs far less room than a held.
        try await cache.save(Self.bytes(40, 4), to: "d")
        #expect(try store.base.storedSize() <= 150, "a, still stored, and d")
        hold.release.open()
        try await save.value
        #expect(try await cache.list(in: "") == ["c", "d"])
        try await Self.expectCountMatches(cache, probe: 100)
    }
}
