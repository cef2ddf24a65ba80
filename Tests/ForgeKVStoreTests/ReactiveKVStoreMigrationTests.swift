import ForgeCore
import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeKVStore

/// A stream of a key with migrations shows what `get` reads, whatever name the value came from: a write or remove
/// of an older name its migrations read refreshes it, through the wrapper or, over a `DiskKVStore`, from another
/// instance on the folder.
struct ReactiveKVStoreMigrationTests {
    let renamed = KVKey<Int>("new", migrations: .renamed(from: "old"))
    let old = KVKey<Int>("old")

    @Test func aWriteThroughTheWrapperToAnOlderNameReachesTheStream() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let values = StreamReader(reactive.stream(renamed))
        #expect(await values.next() == .some(nil))

        try reactive.set(old, value: 5)
        #expect(reactive.get(renamed) == 5)
        #expect(await values.next() == .some(5))
        try reactive.set(old, value: 6)
        #expect(await values.next() == .some(6))
        try reactive.remove(old)
        #expect(await values.next() == .some(nil))
        // Once the key itself holds a value, the older name is not read: a write of it changes nothing `get` reads.
        try reactive.set(renamed, value: 7)
        #expect(await values.next() == .some(7))
        try reactive.set(old, value: 8)
        try reactive.set(renamed, value: 9)
        #expect(await values.next() == .some(9), "8 under the older name is not what `get` reads")
    }

    @Test func aWriteToAnOlderNameReachesStreamsOfEveryKeyThatReadsIt() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let other = KVKey<String>("label", migrations: .from(Int.self, key: "old") { "#\($0)" })
        let plain = StreamReader(reactive.stream(old))
        let numbers = StreamReader(reactive.stream(renamed))
        let labels = StreamReader(reactive.stream(other))
        #expect(await plain.next() == .some(nil))
        #expect(await numbers.next() == .some(nil))
        #expect(await labels.next() == .some(nil))

        try reactive.set(old, value: 3)
        #expect(await plain.next() == .some(3))
        #expect(await numbers.next() == .some(3))
        #expect(await labels.next() == .some("#3"))
    }

    @Test func streamsOfOneNameWithDifferentMigrationsEachReadAsTheirKeyReads() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let unmigrated = KVKey<Int>("new")
        let first = StreamReader(reactive.stream(unmigrated))
        let second = StreamReader(reactive.stream(renamed))
        #expect(await first.next() == .some(nil))
        #expect(await second.next() == .some(nil))

        try reactive.set(old, value: 4)
        try reactive.set(unmigrated, value: 5)
        #expect(await first.next() == .some(5), "the key without migrations never read 4")
        #expect(await second.next() == .some(4))
        #expect(await second.next() == .some(5))
    }

    @Test(.enabled(if: FolderWatch.isSupported, "no folder notifications on this platform yet"))
    func aWriteOfAnOlderNameByAnotherDiskStoreReachesTheStream() async throws {
        try await withTemporaryFolder { folder in
            let reactive = ReactiveKVStore(DiskKVStore(directory: .custom(folder), namespace: "settings"))
            let other = DiskKVStore(directory: .custom(folder), namespace: "settings")
            let values = StreamReader(reactive.stream(renamed))
            #expect(await values.next() == .some(nil))

            try other.set(old, value: 5)
            #expect(await values.next() == .some(5))
            try other.remove(old)
            #expect(await values.next() == .some(nil))
            try other.set(old, value: 6)
            #expect(await values.next() == .some(6))
        }
    }
}
