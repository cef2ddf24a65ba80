import ForgeCore
import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// A store that never stores a lifetime pays nothing for lifetimes.
///
/// Without the `.forge-lifetimes` marker, `contains` is a `stat`, `keys()` a listing and a reclaim reads nothing. The
/// first lifetime writes the marker before its value, and every instance, in the folder as it is after a `removeAll()`
/// too, then reads the headers.
struct DiskKVStoreLifetimesMarkerTests {
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

    /// The marker's path in `store`'s folder.
    private func markerPath(of store: DiskKVStore) -> String {
        store.folderURL.appendingPathComponent(".forge-lifetimes").path
    }

    @Test func withoutALifetimeThereIsNoMarkerAndNothingReadsAFile() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let log = FolderAccessLog()
            let store = makeStore(in: folder, clock: clock, log: log)
            let keys = (0..<5).map { KVKey<Int>("key.\($0)") }
            for (index, key) in keys.enumerated() { try store.set(key, value: index) }
            #expect(!FileManager.default.fileExists(atPath: markerPath(of: store)))

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
            #expect(!FileManager.default.fileExists(atPath: markerPath(of: store)))
        }
    }

    @Test func aLifetimeWritesTheMarkerAndThenItsValueIsReadForItsExpiry() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let log = FolderAccessLog()
            let store = makeStore(in: folder, clock: clock, log: log, durability: .flushed)
            try store.set(KVKey<Int>("plain"), value: 1)
            try store.set(token, value: "t0k3n", expiresAfter: .seconds(30))

            var isFolder: ObjCBool = true
            #expect(FileManager.default.fileExists(atPath: markerPath(of: store), isDirectory: &isFolder))
            #expect(!isFolder.boolValue)
            #expect(try store.keys() == ["plain", token.key], "the marker is no key")

            let readsBefore = log.reads
            #expect(store.contains(token))
            #expect(log.reads == readsBefore + 1, "with the marker, contains reads the key's file")
            #expect(!store.contains(KVKey<Int>("missing")))
            #expect(log.reads == readsBefore + 1, "a key without a file is missing, without a read")

            let second = makeStore(in: folder, clock: clock)
            clock.advance(by: .seconds(30))
            #expect(second.contains(token) == false)
            #expect(try second.keys() == ["plain"])
            #expect(try second.reclaimExpiredValues(limit: 10) == 1)
            #expect(FileManager.default.fileExists(atPath: markerPath(of: store)), "a reclaim leaves the marker")
        }
    }

    @Test func theMarkerIsWrittenBeforeTheValue() async throws {
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
            #expect(FileManager.default.fileExists(atPath: markerPath(of: store)), "written before the value's file")
        }
    }

    @Test func aLongKeysLifetimeWritesTheMarkerToo() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = makeStore(in: folder, clock: clock)
            let long = KVKey<String>(String(repeating: "a very long key ", count: 30))
            try store.set(long, value: "enveloped", expiresAfter: .seconds(10))
            #expect(FileManager.default.fileExists(atPath: markerPath(of: store)))
            let second = makeStore(in: folder, clock: clock)
            clock.advance(by: .seconds(10))
            #expect(second.contains(long) == false)
            #expect(try second.keys() == [])
        }
    }

    @Test func afterRemoveAllByAnotherInstanceALifetimeWritesTheMarkerAgain() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let writer = makeStore(in: folder, clock: clock)
            let remover = makeStore(in: folder, clock: clock)
            try writer.set(token, value: "first", expiresAfter: .seconds(30))
            try remover.removeAll()
            #expect(!FileManager.default.fileExists(atPath: markerPath(of: writer)), "gone with the folder")

            // The writer saw the marker before; the folder it writes into now is a new one.
            try writer.set(token, value: "second", expiresAfter: .seconds(30))
            #expect(FileManager.default.fileExists(atPath: markerPath(of: writer)))
            clock.advance(by: .seconds(30))
            #expect(remover.contains(token) == false)
            #expect(try remover.keys() == [])
            #expect(try remover.reclaimExpiredValues(limit: 10) == 1)
        }
    }

    @Test func theLeftoverSweepLeavesTheMarker() async throws {
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
            #expect(FileManager.default.fileExists(atPath: markerPath(of: store)))
            #expect(try store.keys() == [token.key])
        }
    }
}
