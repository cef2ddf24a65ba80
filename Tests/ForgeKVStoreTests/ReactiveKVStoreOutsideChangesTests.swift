import ForgeCore
import ForgeKVStore
import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeKVStore

/// A `ReactiveKVStore` over a `DiskKVStore` sees the changes other instances on the same folder make, through the
/// operating system's notifications (inotify on Linux).
@Suite(.enabled(if: FolderWatch.isSupported, "no folder notifications on this platform yet"))
struct ReactiveKVStoreOutsideChangesTests {
    let key = KVKey<Int>("taskflow.taskCount")

    @Test func writesOfAnotherInstanceOnTheFolderReachTheStreamInOrder() async throws {
        try await withTemporaryFolder { folder in
            let reactive = ReactiveKVStore(DiskKVStore(directory: .custom(folder), namespace: "settings"))
            let other = DiskKVStore(directory: .custom(folder), namespace: "settings")
            let values = StreamReader(reactive.stream(key))
            #expect(await values.next() == .some(nil))

            for count in 1...5 {
                try other.set(key, value: count)
                #expect(await values.next() == .some(count))
            }
            try other.remove(key)
            #expect(await values.next() == .some(nil))
            try other.set(key, value: 9)
            #expect(await values.next() == .some(9))
            try other.removeAll()
            #expect(await values.next() == .some(nil))
            try other.set(key, value: 10)
            #expect(await values.next() == .some(10), "the folder made again after removeAll is watched")
        }
    }

    @Test func aStoreWhoseBaseFolderIsMissingSeesWritesOnceItIsMade() async throws {
        try await withTemporaryFolder { folder in
            let base = folder.appendingPathComponent("app/support")
            let reactive = ReactiveKVStore(DiskKVStore(directory: .custom(base), namespace: "settings"))
            let values = StreamReader(reactive.stream(key))
            #expect(await values.next() == .some(nil))
            try DiskKVStore(directory: .custom(base), namespace: "settings").set(key, value: 4)
            #expect(await values.next() == .some(4))
        }
    }

    @Test func aThousandStreamsStartedAndEndedLeaveNoWatchOrDescriptor() async throws {
        try await withTemporaryFolder { folder in
            let disk = DiskKVStore(directory: .custom(folder), namespace: "settings")
            let reactive = ReactiveKVStore(disk)
            let path = disk.folderURL.path
            for _ in 0..<1_000 {
                _ = reactive.stream(key)  // released at once, which ends it
            }
            #expect(reactive.observerCount == 0)
            #expect(!FolderWatch.isWatching(path))
            // Each turn of the watches' queue closes what the stops before it started closing.
            for _ in 0..<1_000 where FolderWatch.openDescriptorCount(for: path) > 0 {
                await FolderWatch.stoppedWatchesClosed()
            }
            #expect(FolderWatch.openDescriptorCount(for: path) == 0)
        }
    }

    @Test func manyStreamsOfOneFolderShareOneWatch() async throws {
        try await withTemporaryFolder { folder in
            let disk = DiskKVStore(directory: .custom(folder), namespace: "settings")
            let first = ReactiveKVStore(disk)
            let second = ReactiveKVStore(DiskKVStore(directory: .custom(folder), namespace: "settings"))
            let streams = (0..<10).map { _ in first.stream(key) } + (0..<10).map { _ in second.stream(key) }
            #expect(FolderWatch.openDescriptorCount(for: disk.folderURL.path) == 1)
            let iterator = StreamReader(streams[15])
            #expect(await iterator.next() == .some(nil))
            try disk.set(key, value: 3)
            #expect(await iterator.next() == .some(3))
        }
    }
}
