import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// A value with a lifetime already past is not in the store, whether this store wrote it (and its write reclaimed it
/// at once) or another process did: `get`, `contains` and `keys()` miss it, and a reclaim removes its file.
struct DiskKVStorePastLifetimeTests {
    @Test func aValueWrittenUntilAPastDateIsNotListed() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = DiskKVStore(directory: .custom(folder), namespace: "past", expiry: KVExpiry(clock: clock))
            let stale = KVKey<String>("stale")
            let kept = KVKey<String>("kept")
            try store.set(kept, value: "kept", expiresAfter: .seconds(1))
            try store.set(stale, value: "stale", lifetime: .until(clock.now.addingTimeInterval(-1)))

            #expect(try store.keys() == [kept.key])
            #expect(store.contains(stale) == false)
            #expect(store.get(stale) == nil)
            #expect(store.get(kept) == "kept")
        }
    }

    @Test func aFileAnotherProcessWroteWithAPastDateIsNotListedAndIsReclaimed() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = DiskKVStore(directory: .custom(folder), namespace: "past", expiry: KVExpiry(clock: clock))
            let stale = KVKey<String>("stale")
            let kept = KVKey<String>("kept")
            try store.set(kept, value: "kept")
            let file = try #require(store.fileURL(for: stale))
            // As that process's store does: the file named in the index of lifetimes first, then the file.
            try Data("forge-lifetimes 1 other-process\n1767225599000 stale.json\n".utf8)
                .write(to: store.folderURL.appendingPathComponent(".forge-lifetimes"))
            try Data("#expires 1767225599000\n\"stale\"".utf8).write(to: file)

            #expect(try store.keys() == [kept.key])
            #expect(store.contains(stale) == false)
            #expect(store.get(stale) == nil)
            #expect(try store.reclaimExpiredValues(limit: 10) == 1)
            #expect(FileManager.default.fileExists(atPath: file.path) == false)
            #expect(store.get(kept) == "kept")
        }
    }
}
