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

    /// The next value of `iterator`, or nil (recorded as an issue) when none comes within five seconds: a guard
    /// against a hang when the change is never seen, not a wait for it.
    private func next(_ iterator: inout AsyncStream<Int?>.Iterator) async -> Int?? {
        let box = IteratorBox(iterator)
        defer { iterator = box.iterator }
        return await withTaskGroup(of: Int??.self) { group in
            group.addTask { await box.next() }
            group.addTask {
                try? await Task.sleep(for: .seconds(5))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            if first == nil { Issue.record("no value came within five seconds") }
            return first
        }
    }

    @Test func writesOfAnotherInstanceOnTheFolderReachTheStreamInOrder() async throws {
        try await withTemporaryFolder { folder in
            let reactive = ReactiveKVStore(DiskKVStore(directory: .custom(folder), namespace: "settings"))
            let other = DiskKVStore(directory: .custom(folder), namespace: "settings")
            var values = reactive.stream(key).makeAsyncIterator()
            #expect(await next(&values) == .some(nil))

            for count in 1...5 {
                try other.set(key, value: count)
                #expect(await next(&values) == .some(count))
            }
            try other.remove(key)
            #expect(await next(&values) == .some(nil))
            try other.set(key, value: 9)
            #expect(await next(&values) == .some(9))
            try other.removeAll()
            #expect(await next(&values) == .some(nil))
            try other.set(key, value: 10)
            #expect(await next(&values) == .some(10), "the folder made again after removeAll is watched")
        }
    }

    @Test func aStoreWhoseBaseFolderIsMissingSeesWritesOnceItIsMade() async throws {
        try await withTemporaryFolder { folder in
            let base = folder.appendingPathComponent("app/support")
            let reactive = ReactiveKVStore(DiskKVStore(directory: .custom(base), namespace: "settings"))
            var values = reactive.stream(key).makeAsyncIterator()
            #expect(await next(&values) == .some(nil))
            try DiskKVStore(directory: .custom(base), namespace: "settings").set(key, value: 4)
            #expect(await next(&values) == .some(4))
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
            var iterator = streams[15].makeAsyncIterator()
            #expect(await next(&iterator) == .some(nil))
            try disk.set(key, value: 3)
            #expect(await next(&iterator) == .some(3))
        }
    }
}

/// An iterator a child task can advance and hand back.
private final class IteratorBox: @unchecked Sendable {
    // Advanced by one task at a time: the test awaits each `next()` before the next.
    var iterator: AsyncStream<Int?>.Iterator

    init(_ iterator: AsyncStream<Int?>.Iterator) {
        self.iterator = iterator
    }

    func next() async -> Int?? {
        await iterator.next()
    }
}
