import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// `DiskKVStore.setIfAbsent` against what another program, a power loss or an attacker leaves in the folder.
struct DiskKVStoreSetIfAbsentTests {
    private let claim = KVKey<String>("jobs.claim")

    @Test func aLinkPlantedInTheKeysPlaceIsReplacedNeverFollowed() async throws {
        try await withTemporaryFolder { (folder: URL) async throws in
            let store = DiskKVStore(directory: .custom(folder), namespace: "jobs")
            try store.set(KVKey<String>("other"), value: "kept")
            let target = folder.appendingPathComponent("target.json")
            try Data("\"planted\"".utf8).write(to: target)
            let file = try #require(store.fileURL(for: claim))
            try FileManager.default.createSymbolicLink(at: file, withDestinationURL: target)

            #expect(try store.setIfAbsent(claim, value: "worker-1", lifetime: .after(.seconds(60))))
            #expect(store.get(claim) == "worker-1")
            #expect(try String(decoding: Data(contentsOf: target), as: UTF8.self) == "\"planted\"", "not followed")
            let kind = try FileManager.default.attributesOfItem(atPath: file.path)[.type] as? FileAttributeType
            #expect(kind == .typeRegular, "the link itself was replaced by the key's file")
        }
    }

    @Test func aFileLeftEmptyOrDamagedHoldsNoValueAndIsReplaced() async throws {
        try await withTemporaryFolder { (folder: URL) async throws in
            let store = DiskKVStore(directory: .custom(folder), namespace: "jobs")
            let file = try #require(store.fileURL(for: claim))
            try FileManager.default.createDirectory(at: store.folderURL, withIntermediateDirectories: true)
            for damaged in ["", "{\"unfinished\": "] {
                try Data(damaged.utf8).write(to: file)
                #expect(store.get(claim) == nil)
                #expect(try store.setIfAbsent(claim, value: "worker-1", lifetime: .forever), "after \(damaged)")
                #expect(store.get(claim) == "worker-1")
            }
        }
    }

    @Test func aValueOfAnotherTypeIsKept() async throws {
        try await withTemporaryFolder { (folder: URL) async throws in
            let store = DiskKVStore(directory: .custom(folder), namespace: "jobs")
            try store.set(KVKey<Int>(claim.key), value: 7)
            #expect(try store.setIfAbsent(claim, value: "worker-1", lifetime: .forever) == false)
            #expect(store.get(KVKey<Int>(claim.key)) == 7)
        }
    }

    @Test func aKeyTooLongForAFileNameIsClaimedOnce() async throws {
        try await withTemporaryFolder { (folder: URL) async throws in
            let clock = ManualExpiryClock()
            let store = DiskKVStore(directory: .custom(folder), namespace: "jobs", expiry: KVExpiry(clock: clock))
            let long = KVKey<String>("jobs." + String(repeating: "é", count: 400))
            #expect(store.fileURL(for: long) == nil, "the key's file name is shortened with a hash")
            #expect(try store.setIfAbsent(long, value: "worker-1", lifetime: .after(.seconds(60))))
            #expect(try store.setIfAbsent(long, value: "worker-2", lifetime: .after(.seconds(60))) == false)
            #expect(store.get(long) == "worker-1")
            clock.advance(by: .seconds(60))
            #expect(try store.setIfAbsent(long, value: "worker-2", lifetime: .forever))
            #expect(store.get(long) == "worker-2")
            #expect(try store.keys() == [long.key], "one file holds the key, in its own slot")
        }
    }
}
