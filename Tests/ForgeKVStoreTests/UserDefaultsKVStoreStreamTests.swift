import ForgeCore
import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeKVStore

/// A `ReactiveKVStore` over a `UserDefaultsKVStore` sees the changes every store of the same domain makes in the
/// process, and on Linux those that reach the domain's property list from elsewhere.
///
/// Serialized: the tests count the observers of the hub, and watch the preferences folder.
@Suite(.serialized)
struct UserDefaultsKVStoreStreamTests {
    let key = KVKey<Int>("taskflow.taskCount")

    /// Runs `body` with a fresh suite name, and removes the suite afterwards.
    private func withSuite(_ body: (String) async throws -> Void) async throws {
        let suite = "forge.tests.defaults.stream.\(UUID().uuidString)"
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        try await body(suite)
    }

    @Test func setRemoveAndRemoveAllThroughAnotherInstanceReachTheStream() async throws {
        try await withSuite { suite in
            let reactive = ReactiveKVStore(UserDefaultsKVStore(suiteName: suite))
            let other = UserDefaultsKVStore(suiteName: suite)
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
            try UserDefaultsKVStore(suiteName: suite).set(key, value: 10)
            #expect(await values.next() == .some(10))
        }
    }

    @Test func anotherInstancesChangeReachesTheStreamBeforeItIsFlushed() async throws {
        // Flushes behind wait: on Linux the property list does not change, so only the stores' own notice can tell.
        DefaultsSynchronizer.queue.suspend()
        defer { DefaultsSynchronizer.queue.resume() }
        try await withSuite { suite in
            let reactive = ReactiveKVStore(UserDefaultsKVStore(suiteName: suite))
            let values = StreamReader(reactive.stream(key))
            #expect(await values.next() == .some(nil))
            try UserDefaultsKVStore(suiteName: suite).set(key, value: 1)
            #expect(await values.next() == .some(1))
        }
    }

    @Test func aRemovalUnderAnOlderNameReachesItsStream() async throws {
        try await withSuite { suite in
            let reactive = ReactiveKVStore(UserDefaultsKVStore(suiteName: suite))
            let other = UserDefaultsKVStore(suiteName: suite)
            let oldKey = KVKey<Int>("taskflow.count")
            try other.set(oldKey, value: 3)
            let oldValues = StreamReader(reactive.stream(oldKey))
            #expect(await oldValues.next() == .some(3))
            try other.remove(KVKey<Int>(key.key, migrations: .renamed(from: oldKey.key)))
            #expect(await oldValues.next() == .some(nil))
        }
    }

    @Test func theStandardStoreAndTheAppDomainByNameAreOneDomain() async throws {
        let standard = UserDefaultsKVStore()
        let byName = UserDefaultsKVStore(suiteName: standard.domainName)
        #expect(byName.domainName == standard.domainName)
        #expect(byName.defaults === UserDefaults.standard, "one copy of the domain's values in memory")
        let key = KVKey<Int>("forge.tests.standard.stream.\(UUID().uuidString)")
        defer { try? standard.remove(key) }
        let reactive = ReactiveKVStore(standard)
        let values = StreamReader(reactive.stream(key))
        #expect(await values.next() == .some(nil))
        try byName.set(key, value: 1)
        #expect(await values.next() == .some(1))
        try UserDefaultsKVStore(defaults: .standard).set(key, value: 2)
        #expect(await values.next() == .some(2))
    }

    @Test func eachChangeIsPostedToItsDomainOnlyAsItIsMade() async throws {
        try await withSuite { suite in
            try await withSuite { otherSuite in
                let received = LockedState<[String?]>([])
                let observation = DefaultsChangeHub.shared.observe(suite) { key in
                    received.withLock { $0.append(key) }
                }
                defer { observation.end() }
                let store = UserDefaultsKVStore(suiteName: suite)
                let neighbour = UserDefaultsKVStore(suiteName: otherSuite)

                try neighbour.set(key, value: 1)
                try neighbour.remove(key)
                try neighbour.removeAll()
                #expect(received.withLock { $0 }.isEmpty)

                // Told before the call returns, with no wait: the change is readable in the process at once.
                try store.set(key, value: 1)
                #expect(received.withLock { $0 } == ["taskflow.taskCount"])
                try store.remove(KVKey<Int>("b"))
                try store.removeAll()
                #expect(received.withLock { $0 } == ["taskflow.taskCount", "b", nil])
            }
        }
    }

    @Test func aThousandStreamsStartedAndEndedLeaveNoObserverInTheHub() async throws {
        try await withSuite { suite in
            let reactive = ReactiveKVStore(UserDefaultsKVStore(suiteName: suite))
            for _ in 0..<1_000 {
                _ = reactive.stream(key)  // released at once, which ends it
            }
            let streams = (0..<100).map { _ in reactive.stream(key) }
            #expect(DefaultsChangeHub.shared.observerCount(of: suite) == 1, "one observation for every stream")
            _ = consume streams
            #expect(reactive.observerCount == 0)
            #expect(DefaultsChangeHub.shared.observerCount(of: suite) == 0)
        }
    }

    @Test func anEndedObservationKeepsNoObserverAnywhere() async throws {
        try await withSuite { suite in
            let store = UserDefaultsKVStore(suiteName: suite)
            // Whether the preferences folder is watched depends on the streams of other tests running meanwhile: what
            // this observation added is seen by what it holds, which nothing keeps once it ends.
            for _ in 0..<1_000 {
                weak var released: Sentinel?
                do {
                    let held = Sentinel()
                    released = held
                    store.observeChanges { _ in _ = held }.end()
                }
                #expect(released == nil)
            }
            #expect(DefaultsChangeHub.shared.observerCount(of: suite) == 0)
        }
    }

    @Test(.enabled(if: FolderWatch.isSupported, "no folder notifications on this platform"))
    func aWriteOfThePropertyListOutsideTheStoresReachesTheStream() async throws {
        try await withSuite { suite in
            let store = UserDefaultsKVStore(suiteName: suite)
            try store.set(key, value: 1)
            try store.flush()
            let reactive = ReactiveKVStore(store)
            let values = StreamReader(reactive.stream(key))
            #expect(await values.next() == .some(1))

            // What a process writing the file does (another process's store holds the lock, and counts the write).
            try DefaultsFileLock(domainName: suite)
                .withLock { held in
                    let data = try PropertyListSerialization.data(
                        fromPropertyList: [key.key: 2],
                        format: .xml,
                        options: 0
                    )
                    try data.write(to: URL(fileURLWithPath: DefaultsFileLock.preferencesFolder + "/\(suite).plist"))
                    held.countWrite()
                }
            #expect(await values.next() == .some(2))
        }
    }

    @Test(.enabled(if: FolderWatch.isSupported, "no folder notifications on this platform"))
    func aFlushOfAnotherDomainIsNoChange() async throws {
        try await withSuite { suite in
            try await withSuite { otherSuite in
                let store = UserDefaultsKVStore(suiteName: suite)
                try store.set(key, value: 0)
                try store.flush()
                let folder = DefaultsFileLock.preferencesFolder
                let fileName = "\(suite).plist"
                let outsideChanges = LockedState(0)
                let observation = store.synchronizer.observeOutsideChanges {
                    outsideChanges.withLock { $0 += 1 }
                }
                defer { observation.end() }
                // Told of every name after the observer above, in order: once it sees this domain's file, the
                // observer has been told of every event before, the other domain's files included.
                let (fileWritten, written) = AsyncStream<Void>.makeStream()
                let barrier = FolderWatch.observe(folder) { name in
                    if name == fileName { written.yield() }
                }
                defer { barrier.end() }

                let neighbour = UserDefaultsKVStore(suiteName: otherSuite)
                for value in 1...3 {
                    try neighbour.set(key, value: value)
                    try neighbour.flush()
                }
                try store.set(key, value: 1)
                try store.flush()
                #expect(await StreamReader(fileWritten).next() != nil)
                // The events of one delivery are given to every observer before the next delivery starts.
                await FolderWatch.stoppedWatchesClosed()
                let count = outsideChanges.withLock { $0 }
                #expect(count >= 1 && count <= 2, "\(count) changes told for one write of the file")
            }
        }
    }
}

/// An object whose release shows that nothing holds the closure that captured it.
private final class Sentinel: Sendable {}
