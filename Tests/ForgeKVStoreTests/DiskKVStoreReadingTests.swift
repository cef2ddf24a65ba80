import ForgeCore
import ForgeKVStore
import ForgeTestSupport
import Foundation
import Testing

/// `value(for:)` and `keys()` on disk: what cannot be read throws a typed error naming the key and loses nothing,
/// and every handle on a folder lists the same keys.
struct DiskKVStoreReadingTests {
    /// The key of the `readFailed` error `read` throws, or nil (recorded) when it throws anything else.
    private func readFailedKey(_ read: () throws -> Int?) -> String? {
        do {
            _ = try read()
            Issue.record("the read did not throw")
        } catch KVStoreError.readFailed(let key, _) {
            return key
        } catch {
            Issue.record("expected readFailed, got \(error)")
        }
        return nil
    }

    @Test func aFolderInPlaceOfAKeyFileThrowsReadFailedNamingTheKey() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskKVStore(directory: .custom(folder), namespace: "odd")
            let key = KVKey<Int>("count")
            try ForeignFiles.createFolder(atPath: try #require(store.fileURL(for: key)).path)

            #expect(readFailedKey { try store.value(for: key) } == "count")
            #expect(store.get(key) == nil)
            #expect(try store.value(for: KVKey<Int>("other")) == nil)
        }
    }

    @Test func aLinkPlantedInPlaceOfAKeyFileThrowsReadFailedAndIsNotFollowed() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskKVStore(directory: .custom(folder), namespace: "settings")
            let key = KVKey<Int>("count")
            try store.set(key, value: 1)
            let outside = folder.appendingPathComponent("outside.json")
            try Data("42".utf8).write(to: outside)
            let keyFile = try #require(store.fileURL(for: key))
            try FileManager.default.removeItem(at: keyFile)
            try FileManager.default.createSymbolicLink(at: keyFile, withDestinationURL: outside)

            #expect(readFailedKey { try store.value(for: key) } == "count")
            #expect(try store.keys() == [], "a link is not a key of the store")
        }
    }

    @Test func aMigrationThatMeetsAnUnreadableOlderFileThrowsInsteadOfReadingNil() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskKVStore(directory: .custom(folder), namespace: "settings")
            let old = KVKey<Int>("count.v1")
            try ForeignFiles.createFolder(atPath: try #require(store.fileURL(for: old)).path)
            let current = KVKey<Int>("count", migrations: .renamed(from: "count.v1"))

            #expect(readFailedKey { try store.value(for: current) } == "count.v1")
        }
    }

    @Test func aRemoveCutShortLeavesTheCurrentValueNotAnOlderOne() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskKVStore(directory: .custom(folder), namespace: "settings")
            let current = KVKey<Int>("count", migrations: .renamed(from: "count.v1"))
            try store.set(current, value: 2)
            // The older name's file cannot be removed: a folder with something in it stands in its place.
            let older = try #require(store.fileURL(for: KVKey<Int>("count.v1")))
            try ForeignFiles.createFolder(atPath: older.path)
            try Data("x".utf8).write(to: older.appendingPathComponent("inside"))

            #expect(throws: KVStoreError.self) { try store.remove(current) }
            #expect(try store.value(for: current) == 2)
        }
    }

    @Test func aSecondHandleAndAnOutsideWriterAreListedAlike() async throws {
        try await withTemporaryFolder { folder in
            let first = DiskKVStore(directory: .custom(folder), namespace: "shared")
            let second = DiskKVStore(directory: .custom(folder), namespace: "shared")
            let long = String(repeating: "a very long key ", count: 30)
            try first.set(KVKey<Int>("b"), value: 1)
            try first.set(KVKey<String>(long), value: "long")
            try second.set(KVKey<Int>("a"), value: 2)
            // A value written by something other than a store: a file named as the store names the key's file.
            let outsideFile = try #require(first.fileURL(for: KVKey<Int>("c")))
            try Data("3".utf8).write(to: outsideFile)

            let expected = ["a", "b", "c", long].sorted()
            #expect(try first.keys() == expected)
            #expect(try second.keys() == expected)
            #expect(try second.value(for: KVKey<Int>("c")) == 3)

            try second.remove(KVKey<String>(long))
            #expect(try first.keys() == ["a", "b", "c"])
        }
    }

    @Test func aFileInPlaceOfTheNamespaceFolderHoldsNoKeysAndIsKept() async throws {
        try await withTemporaryFolder { folder in
            let planted = folder.appendingPathComponent("settings")
            try Data("not a folder".utf8).write(to: planted)
            let store = DiskKVStore(directory: .custom(folder), namespace: "settings")

            #expect(try store.keys() == [])
            #expect(try store.value(for: KVKey<Int>("count")) == nil)
            #expect(throws: KVStoreError.self) { try store.set(KVKey<Int>("count"), value: 1) }
            #expect(try Data(contentsOf: planted) == Data("not a folder".utf8))
        }
    }

    @Test func aFolderNotCreatedYetHasNoKeys() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskKVStore(directory: .custom(folder), namespace: "never.written")
            let keys = try store.keys()
            #expect(keys.isEmpty)
        }
    }
}
