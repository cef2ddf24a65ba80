import ForgeCore
import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// Lifetimes cost only what expires.
///
/// Without the `.forge-lifetimes` index, `contains` is a `stat`, `keys()` a listing and a reclaim reads nothing. The
/// first lifetime makes the index, each one is named there before its value is written, and from then on `contains`,
/// `keys()` and a reclaim read only the files that may have expired. A damaged index is never trusted, and the next
/// reclaim writes it again from the files.
struct DiskKVStoreLifetimesIndexTests {
    private let token = KVKey<String>("session.token")

    /// A store on `folder` whose lifetimes run on `clock`, whose folder counts its reads and listings in `log`.
    private func makeStore(
        in folder: URL,
        clock: ManualExpiryClock,
        log: FolderAccessLog? = nil,
        durability: Durability = .atomic
    ) -> DiskKVStore {
        DiskKVStore(
            directory: .custom(folder),
            namespace: "sessions",
            durability: durability,
            expiry: KVExpiry(clock: clock, reclaimInterval: .seconds(60)),
            accessLog: log
        )
    }

    /// The index's path in `store`'s folder.
    private func indexPath(of store: DiskKVStore) -> String {
        store.folderURL.appendingPathComponent(".forge-lifetimes").path
    }

    /// Adds `text` to the end of `store`'s index, as a writer midway through its line (or one that crashed) leaves it.
    private func append(_ text: String, toIndexOf store: DiskKVStore) throws {
        let index = try FileHandle(forWritingTo: URL(fileURLWithPath: indexPath(of: store)))
        try index.seekToEnd()
        try index.write(contentsOf: Data(text.utf8))
        try index.close()
    }

    /// How many key files the folder of `log` read: the index's reads left out.
    private func keyFileReads(_ log: FolderAccessLog) -> Int {
        log.namesRead.filter { $0.hasSuffix(".json") }.count
    }

    /// The index's lines after its first, as the file holds them.
    private func indexLines(of store: DiskKVStore) throws -> [String] {
        let text = try String(contentsOfFile: indexPath(of: store), encoding: .utf8)
        // `split` leaves out the empty lines additions start with.
        return Array(text.split(separator: "\n").dropFirst().map(String.init))
    }

    /// The files the index names, each with the earliest date of its lines since the last that forgets it, as
    /// `"{milliseconds} {file}"`, sorted.
    private func indexEntries(of store: DiskKVStore) throws -> [String] {
        var named: [String: Int64] = [:]
        for line in try indexLines(of: store) {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            if parts[0] == "~" {
                named[parts[1]] = nil
            } else if let milliseconds = Int64(parts[0]) {
                named[parts[1]] = min(named[parts[1]] ?? .max, milliseconds)
            }
        }
        return named.map { "\($0.value) \($0.key)" }.sorted()
    }

    @Test func withoutALifetimeThereIsNoIndexAndNothingReadsAFile() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let log = FolderAccessLog()
            let store = makeStore(in: folder, clock: clock, log: log)
            let keys = (0..<5).map { KVKey<Int>("key.\($0)") }
            for (index, key) in keys.enumerated() { try store.set(key, value: index) }
            #expect(!FileManager.default.fileExists(atPath: indexPath(of: store)))

            #expect(keys.allSatisfy { store.contains($0) })
            #expect(!store.contains(KVKey<Int>("missing")))
            #expect(try store.keys() == keys.map(\.key))
            #expect(try store.reclaimExpiredValues(limit: 10) == 0)
            #expect(try store.removeExpiredValues(at: clock.now, limit: 10) == [])
            // A write once the reclaim interval has passed runs the reclaim it finds due.
            clock.advance(by: .seconds(61))
            try store.set(keys[0], value: 10)
            #expect(try store.storedNames(liveAt: clock.now).count == keys.count)

            #expect(log.reads == 0, "contains, keys() and the reclaims read no key file")
            #expect(log.listings == 2, "keys() and storedNames(liveAt:) list the folder; the reclaims do not")
            #expect(!FileManager.default.fileExists(atPath: indexPath(of: store)))
        }
    }

    @Test func aLifetimeIsNamedInTheIndexAndItsFileIsReadOnlyOnceItMayHaveExpired() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let log = FolderAccessLog()
            let store = makeStore(in: folder, clock: clock, log: log, durability: .flushed)
            try store.set(KVKey<Int>("plain"), value: 1)
            try store.set(token, value: "t0k3n", expiresAfter: .seconds(30))
            let expiresAt = Int64(clock.now.timeIntervalSince1970 * 1000) + 30_000
            #expect(try indexEntries(of: store) == ["\(expiresAt) session.token.json"])

            #expect(try store.keys() == ["plain", token.key], "the index is no key")
            let readsBefore = keyFileReads(log)
            #expect(store.contains(token))
            #expect(try store.keys() == ["plain", token.key])
            #expect(try store.reclaimExpiredValues(limit: 10) == 0)
            #expect(keyFileReads(log) == readsBefore, "the index says nothing may have expired: no key file is read")

            clock.advance(by: .seconds(29))
            #expect(store.contains(token))
            #expect(keyFileReads(log) == readsBefore)
            clock.advance(by: .seconds(1))
            #expect(store.contains(token) == false)
            #expect(keyFileReads(log) == readsBefore + 1, "once it may have expired, contains reads the key's file")
            #expect(try store.keys() == ["plain"])
            #expect(keyFileReads(log) == readsBefore + 2, "and keys() reads that file alone")

            let second = makeStore(in: folder, clock: clock)
            #expect(second.contains(token) == false)
            #expect(try second.keys() == ["plain"])
            #expect(try second.reclaimExpiredValues(limit: 10) == 1)
            #expect(try indexEntries(of: store) == [], "the reclaim forgets it")
            #expect(try indexLines(of: store) == ["\(expiresAt) session.token.json", "~ session.token.json"])
            try second.set(token, value: "again", expiresAfter: .seconds(30))
            #expect(store.contains(token), "the first instance reads what the second added, the line that forgets too")
            clock.advance(by: .seconds(30))
            #expect(try store.keys() == ["plain"])
            #expect(FileManager.default.fileExists(atPath: indexPath(of: store)), "and leaves the index")
        }
    }

    @Test func theIndexNamesTheFileBeforeItIsWritten() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = makeStore(in: folder, clock: clock)
            // A folder in the key's place fails the write of its value, and only that one.
            let file = try #require(store.fileURL(for: token))
            // The leftover sweep the store started in the background removes empty folders: it ends first.
            await StoreFolder.leftoverSweepsFinished()
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)

            #expect(throws: KVStoreError.self) {
                try store.set(token, value: "t0k3n", expiresAfter: .seconds(30))
            }
            #expect(try indexEntries(of: store).count == 1, "named before the value's file was written")
        }
    }

    @Test func aLongKeysLifetimeIsNamedToo() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = makeStore(in: folder, clock: clock)
            let long = KVKey<String>(String(repeating: "a very long key ", count: 30))
            try store.set(long, value: "enveloped", expiresAfter: .seconds(10))
            #expect(try indexEntries(of: store).count == 1)
            let second = makeStore(in: folder, clock: clock)
            #expect(second.contains(long))
            clock.advance(by: .seconds(10))
            #expect(second.contains(long) == false)
            #expect(try second.keys() == [])
            #expect(try second.removeExpiredValues(at: clock.now, limit: 10) == [long.key])
        }
    }

    @Test func afterRemoveAllByAnotherInstanceALifetimeMakesTheIndexAgain() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let writer = makeStore(in: folder, clock: clock)
            let remover = makeStore(in: folder, clock: clock)
            try writer.set(token, value: "first", expiresAfter: .seconds(30))
            #expect(remover.contains(token))
            try remover.removeAll()
            #expect(!FileManager.default.fileExists(atPath: indexPath(of: writer)), "gone with the folder")

            // Both instances read the index before; the folder the writer writes into now is a new one.
            try writer.set(KVKey<String>("other"), value: "second", expiresAfter: .seconds(10))
            #expect(try indexEntries(of: writer).count == 1)
            clock.advance(by: .seconds(10))
            #expect(remover.contains(KVKey<String>("other")) == false)
            #expect(try remover.keys() == [])
            #expect(try remover.reclaimExpiredValues(limit: 10) == 1)
        }
    }

    @Test func aValueSetAgainWithoutALifetimeOrLaterStaysAndTheReclaimNamesItAsItIs() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = makeStore(in: folder, clock: clock)
            let renewed = KVKey<String>("renewed")
            let kept = KVKey<String>("kept")
            try store.set(renewed, value: "old", expiresAfter: .seconds(10))
            try store.set(kept, value: "old", expiresAfter: .seconds(10))
            try store.set(renewed, value: "new", expiresAfter: .seconds(60))
            try store.set(kept, value: "new")
            #expect(try indexLines(of: store).count == 3, "each write of a lifetime adds a line")

            clock.advance(by: .seconds(10))
            #expect(store.contains(renewed) && store.contains(kept))
            #expect(try store.keys() == [kept.key, renewed.key])
            #expect(try store.reclaimExpiredValues(limit: 10) == 0)
            let renewedAt = Int64(clock.now.timeIntervalSince1970 * 1000) + 50_000
            #expect(try indexEntries(of: store) == ["\(renewedAt) renewed.json"], "named by what its file holds now")
            clock.advance(by: .seconds(50))
            #expect(try store.keys() == [kept.key])
            #expect(try store.reclaimExpiredValues(limit: 10) == 1)
            #expect(try indexEntries(of: store) == [])
        }
    }

    @Test func aReclaimReadsOnlyTheFilesThatMayHaveExpiredAndStopsAtItsLimit() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let log = FolderAccessLog()
            let store = makeStore(in: folder, clock: clock, log: log)
            for index in 0..<50 {
                try store.set(KVKey<Int>("long.\(index)"), value: index, expiresAfter: .seconds(3600))
            }
            for index in 0..<5 {
                try store.set(KVKey<Int>("short.\(index)"), value: index, expiresAfter: .seconds(1 + index))
            }
            clock.advance(by: .seconds(3))
            let readsBefore = log.namesRead.count
            let removed = try store.removeExpiredValues(at: clock.now, limit: 2)
            #expect(removed == ["short.0", "short.1"], "earliest first")
            let read = log.namesRead.dropFirst(readsBefore)
            #expect(read.filter { $0.hasSuffix(".json") } == ["short.0.json", "short.1.json"], "the two files alone")
            #expect(read.filter { $0 == ".forge-lifetimes" }.count <= 2, "and the index, where it grew")
            #expect(try store.removeExpiredValues(at: clock.now, limit: 10) == ["short.2"])
            #expect(try store.keys().count == 52)
            #expect(log.listings == 1, "no reclaim lists the folder")
        }
    }

    @Test func linesOfOneKeySetAgainAndAgainAreWrittenAsOne() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = makeStore(in: folder, clock: clock)
            for round in 0..<100 {
                try store.set(token, value: "t\(round)", expiresAfter: .seconds(3600))
                clock.advance(by: .milliseconds(1))
            }
            #expect(try indexLines(of: store).count == 100)
            #expect(try store.reclaimExpiredValues(limit: 10) == 0)
            #expect(try indexLines(of: store).count == 1, "the reclaim writes the index again, a line per file")
            #expect(store.contains(token))
        }
    }

    /// Damaged indexes, by what is wrong with them.
    private static let damagedIndexes = [
        "a line that is no entry": "forge-lifetimes 1 x\n12 a.json\nnot a line\n",
        "another format": "Values in this folder may have lifetimes: their files start with #expires.\n",
        "empty": "",
        "a line that forgets no file": "forge-lifetimes 1 x\n12 a.json\n~ \n",
        "a line cut short, then another": "forge-lifetimes 1 x\n1767225599000 ste1767225599000 b.json\n",
    ]

    @Test(arguments: damagedIndexes.keys.sorted())
    func aDamagedIndexIsNeverTrustedAndTheReclaimWritesItAgain(_ damage: String) async throws {
        let contents = Data(try #require(Self.damagedIndexes[damage]).utf8)
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = makeStore(in: folder, clock: clock)
            let stale = KVKey<String>("stale")
            try store.set(stale, value: "stale", expiresAfter: .seconds(5))
            try store.set(token, value: "t0k3n", expiresAfter: .seconds(60))
            try contents.write(to: URL(fileURLWithPath: indexPath(of: store)))

            clock.advance(by: .seconds(5))
            #expect(store.contains(stale) == false, "every file is read")
            #expect(try store.keys() == [token.key])
            #expect(try store.reclaimExpiredValues(limit: 10) == 1)
            let tokenAt = Int64(clock.now.timeIntervalSince1970 * 1000) + 55_000
            #expect(try indexLines(of: store) == ["\(tokenAt) session.token.json"], "written again from the files")
            clock.advance(by: .seconds(55))
            #expect(try store.keys() == [])
        }
    }

    @Test func aLastLineWithoutItsEndIsLeftForTheNextRead() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = makeStore(in: folder, clock: clock)
            try store.set(token, value: "t0k3n", expiresAfter: .seconds(60))
            #expect(store.contains(token))
            // A writer midway through its line: the line is not read until it ends.
            try append("0 stale.j", toIndexOf: store)
            #expect(try store.keys() == [token.key])
            // It ends, and its file is written: the reader that read the start of the line reads the rest.
            try append("son\n", toIndexOf: store)
            try Data("#expires 0\n\"stale\"".utf8).write(to: store.folderURL.appendingPathComponent("stale.json"))
            #expect(store.contains(KVKey<String>("stale")) == false)
            #expect(try store.keys() == [token.key])
            #expect(try store.reclaimExpiredValues(limit: 10) == 1)
        }
    }

    @Test func aDateCutShortIsNeverReadAsPartOfTheNextLine() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = makeStore(in: folder, clock: clock)
            try store.set(token, value: "t0k3n", expiresAfter: .seconds(5))
            // A writer that crashed after the first digits of its date; the next line is added after it.
            try append("17", toIndexOf: store)
            let other = KVKey<String>("other")
            try store.set(other, value: "o", expiresAfter: .seconds(5))
            #expect(try indexLines(of: store).contains("17"), "the cut date ends where the next line starts")

            clock.advance(by: .seconds(5))
            #expect(store.contains(other) == false, "the damaged index is not trusted: the file is read")
            #expect(try store.keys() == [])
            #expect(try store.reclaimExpiredValues(limit: 10) == 2)
            #expect(try indexLines(of: store) == [], "written again from the files")
        }
    }

    @Test func aReclaimWritesAgainAnIndexThatEndsInALineCutShort() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = makeStore(in: folder, clock: clock)
            try store.set(token, value: "t0k3n", expiresAfter: .seconds(5))
            try append("\n0 stale.j", toIndexOf: store)

            // With every writer held back by the reclaim, the cut line is one a crashed writer left.
            clock.advance(by: .seconds(5))
            #expect(try store.reclaimExpiredValues(limit: 10) == 1)
            let text = try String(contentsOfFile: indexPath(of: store), encoding: .utf8)
            #expect(!text.contains("stale"))
            #expect(text.hasSuffix("\n"))
        }
    }

    @Test func anIndexMadeAgainAtOnceIsReadAgain() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let reader = makeStore(in: folder, clock: clock)
            let writer = makeStore(in: folder, clock: clock)
            try writer.set(token, value: "first", expiresAfter: .seconds(60))
            #expect(reader.contains(token))
            // Removed and made again at once: the new index may take the old one's inode, size and time.
            try writer.removeAll()
            try writer.set(token, value: "second", expiresAfter: .seconds(10))
            clock.advance(by: .seconds(10))
            #expect(reader.contains(token) == false)
            #expect(try reader.keys() == [])
        }
    }

    @Test func aFolderOrALinkInTheIndexsPlaceIsNeverTrustedAndStays() async throws {
        try await withTemporaryFolder { folder in
            for planted in ["folder", "link"] {
                let clock = ManualExpiryClock()
                let store = DiskKVStore(
                    directory: .custom(folder),
                    namespace: planted,
                    expiry: KVExpiry(clock: clock)
                )
                try store.set(KVKey<Int>("plain"), value: 1)
                // The leftover sweep the store started in the background removes empty folders: it ends first.
                await StoreFolder.leftoverSweepsFinished()
                let path = indexPath(of: store)
                if planted == "folder" {
                    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
                } else {
                    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/null")
                }
                try store.set(token, value: "t0k3n", expiresAfter: .seconds(5))
                #expect(store.contains(token))
                clock.advance(by: .seconds(5))
                #expect(store.contains(token) == false)
                #expect(try store.keys() == ["plain"])
                #expect(try store.reclaimExpiredValues(limit: 10) == 1)
                let kind = try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType
                #expect(kind == (planted == "folder" ? .typeDirectory : .typeSymbolicLink), "left as it was")
            }
        }
    }

    @Test func anInstanceSeesTheIndexAnotherInstanceWroteAgain() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let reader = makeStore(in: folder, clock: clock)
            let writer = makeStore(in: folder, clock: clock)
            try writer.set(token, value: "t0k3n", expiresAfter: .seconds(5))
            #expect(reader.contains(token))
            clock.advance(by: .seconds(5))
            // The writer's reclaim adds to the index what it forgets; a lifetime already past is named after it.
            #expect(try writer.reclaimExpiredValues(limit: 10) == 1)
            let stale = KVKey<String>("stale")
            try writer.set(stale, value: "stale", lifetime: .until(clock.now.addingTimeInterval(-1)))
            #expect(reader.contains(stale) == false)
            #expect(try reader.keys() == [])
        }
    }

    @Test func theLeftoverSweepLeavesTheIndex() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = makeStore(in: folder, clock: clock)
            try store.set(token, value: "t0k3n", expiresAfter: .seconds(30))
            let orphan = store.folderURL.appendingPathComponent(".x\(TemporaryName.marker)2147483646-a")
            try Data("1".utf8).write(to: orphan)
            // The folder's path with a trailing slash is a folder this process has not swept yet.
            StoreFolder(path: store.folderURL.path + "/").removeLeftoversOnce()
            await StoreFolder.leftoverSweepsFinished()
            #expect(!FileManager.default.fileExists(atPath: orphan.path), "the sweep ran")
            #expect(FileManager.default.fileExists(atPath: indexPath(of: store)))
            #expect(try store.keys() == [token.key])
        }
    }
}
