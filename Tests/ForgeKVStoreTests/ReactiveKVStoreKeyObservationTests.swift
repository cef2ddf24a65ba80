import ForgeCore
import Foundation
import Testing

@testable import ForgeKVStore

/// A `ReactiveKVStore` has the wrapped store watch each streamed key by name (how a `UserDefaultsKVStore` learns of
/// an app group's other processes' changes on Apple platforms), from the key's first stream to its last.
struct ReactiveKVStoreKeyObservationTests {
    let key = KVKey<Int>("taskCount")

    @Test func aStreamOfAKeyStartsOneWatchOfItsName() {
        let store = KeyWatchingStore()
        let reactive = ReactiveKVStore(store)
        let first = reactive.stream(key)
        #expect(store.liveWatches == ["taskCount"])
        let second = reactive.stream(key)
        let asString = reactive.stream(KVKey<String>("taskCount"))
        #expect(store.liveWatches == ["taskCount"], "later streams of the key, of any type, share the watch")
        #expect(store.watchesStarted == 1)
        withExtendedLifetime((first, second, asString)) {}
    }

    @Test func aKeyWithMigrationsHasEachNameItIsStoredUnderWatched() async throws {
        let store = KeyWatchingStore()
        let reactive = ReactiveKVStore(store)
        let appearance = KVKey<Int>(
            "appearance",
            migrations: .renamed(from: "theme"),
            .from(String.self, key: "look") { Int($0) ?? 0 }
        )
        var values = reactive.stream(appearance).makeAsyncIterator()
        #expect(store.liveWatches == ["appearance", "look", "theme"])
        #expect(await values.next() == .some(nil))

        // Written around the wrapper, as another process would, then told by the older name's watch.
        try store.base.set(KVKey<Int>("theme"), value: 3)
        store.fire("theme")
        #expect(await values.next() == .some(3))
        try store.base.set(appearance, value: 4)
        store.fire("appearance")
        #expect(await values.next() == .some(4))
    }

    @Test func firingAWatchMakesEveryStreamOfTheKeyReadAgain() async throws {
        let store = KeyWatchingStore()
        let reactive = ReactiveKVStore(store)
        let other = KVKey<Int>("other")
        var counts = reactive.stream(key).makeAsyncIterator()
        var labels = reactive.stream(KVKey<String>("taskCount")).makeAsyncIterator()
        var others = reactive.stream(other).makeAsyncIterator()
        #expect(await counts.next() == .some(nil))
        #expect(await labels.next() == .some(nil))
        #expect(await others.next() == .some(nil))

        try store.base.set(key, value: 7)
        try store.base.set(other, value: 8)  // not told: its stream must not emit it
        store.fire("taskCount")
        try store.base.set(key, value: 9)
        store.fire("taskCount")
        #expect(await counts.next() == .some(7))
        #expect(await counts.next() == .some(9))
        try reactive.set(other, value: 10)
        #expect(await others.next() == .some(10), "the stream of the other key skipped 8, which nothing told of")
        withExtendedLifetime(labels) {}
    }

    @Test func endingTheLastStreamOfAKeyEndsItsWatches() {
        let store = KeyWatchingStore()
        let reactive = ReactiveKVStore(store)
        // Of another type: a stream joins the channel of its key's type, which reads through the first key's migrations.
        let renamed = KVKey<Double>("taskCount", migrations: .renamed(from: "count"))
        var counts = [reactive.stream(key), reactive.stream(key)]
        var renamedCounts = [reactive.stream(renamed)]
        let other = reactive.stream(KVKey<Int>("other"))
        #expect(store.liveWatches == ["count", "other", "taskCount"])

        renamedCounts.removeAll()  // the only channel that read "count"
        #expect(store.liveWatches == ["other", "taskCount"])
        counts.removeLast()
        #expect(store.liveWatches == ["other", "taskCount"], "one stream still reads the key")
        counts.removeAll()
        #expect(store.liveWatches == ["other"])
        #expect(reactive.watchedNames == ["other": ["other"]])

        _ = reactive.stream(key)  // released at once
        #expect(store.liveWatches == ["other"])
        #expect(store.watchesStarted == 4)
        withExtendedLifetime(other) {}
    }

    @Test func releasingTheWrapperEndsItsWatchesAndStreams() async throws {
        let store = KeyWatchingStore()
        var reactive: ReactiveKVStore? = ReactiveKVStore(store)
        var values = try #require(reactive).stream(key).makeAsyncIterator()
        #expect(await values.next() == .some(nil))
        #expect(store.liveWatches == ["taskCount"])

        reactive = nil
        #expect(store.liveWatches.isEmpty)
        #expect(await values.next() == nil, "the stream ended")
        store.fire("taskCount")  // reaches nothing
    }

    @Test func aStoreMayTellOfAChangeWhileAWatchStartsOrEnds() async throws {
        // A store that calls back at once would deadlock a wrapper that held a lock the callback takes.
        let store = KeyWatchingStore(callsBackWhileStartingAndEnding: true)
        let reactive = ReactiveKVStore(store)
        try store.base.set(key, value: 1)
        do {
            var values = reactive.stream(key).makeAsyncIterator()
            #expect(await values.next() == .some(1))
            #expect(store.liveWatches == ["taskCount"])
            try store.base.set(key, value: 2)
        }  // the stream ends here, and its watch with it
        #expect(store.liveWatches.isEmpty)
    }

    @Test func aThousandStreamsStartedAndEndedLeaveNoWatchLive() {
        let store = KeyWatchingStore()
        let reactive = ReactiveKVStore(store)
        for index in 0..<1_000 {
            _ = reactive.stream(KVKey<Int>("key\(index % 10)"))  // released at once, which ends it
        }
        #expect(store.liveWatches.isEmpty)
        #expect(reactive.watchedNames.isEmpty)
        #expect(reactive.observerCount == 0)
    }

    @Test func streamsComingAndGoingOnManyThreadsWhileWatchesFireLeaveNoWatchLive() async {
        let store = KeyWatchingStore()
        let reactive = ReactiveKVStore(store)
        let keys = (0..<4).map { KVKey<Int>("key\($0)", migrations: .renamed(from: "old\($0)")) }
        let names = keys.flatMap(\.storedNames)
        let kept = reactive.stream(keys[0])  // one key keeps a stream throughout
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for turn in 0..<250 {
                        let key = keys[(worker + turn) % keys.count]
                        var counts = [reactive.stream(key)]
                        var labels = turn % 2 == 0 ? [reactive.stream(KVKey<String>(key.key))] : []
                        store.fire(names[turn % names.count])
                        counts.removeAll()
                        labels.removeAll()
                    }
                }
            }
            // Changes told while watches start and end: none may deadlock with an ending.
            group.addTask {
                for turn in 0..<2_000 { store.fire(names[turn % names.count]) }
            }
        }
        #expect(store.liveWatches == ["key0", "old0"])
        #expect(reactive.watchedNames == ["key0": ["key0", "old0"]])
        withExtendedLifetime(kept) {}
    }
}

/// A `UserDefaultsKVStore` watches a single key by key-value observing on Apple platforms, under the name it stores
/// the key under; the choice of that name, and of the keys it can watch so, is portable.
struct UserDefaultsKVStoreKeyObservationTests {
    @Test func onlyNamesKeyValueObservingTakesAsOneKeyAreObserved() {
        #expect(UserDefaultsKVStore.isKeyValueObservable("taskCount"))
        #expect(UserDefaultsKVStore.isKeyValueObservable("task count, café/\u{1F600}"))
        #expect(!UserDefaultsKVStore.isKeyValueObservable("taskflow.taskCount"), "a dot separates a key path")
        #expect(!UserDefaultsKVStore.isKeyValueObservable("@count"), "a leading @ names an operator")
        #expect(!UserDefaultsKVStore.isKeyValueObservable(""))
    }

    @Test func theObservedNameIsTheStoredNFCSpelling() {
        let store = UserDefaultsKVStore(suiteName: "ForgeKVStoreTests.keyObservation")
        #expect(store.keyValueObservedName(of: "cafe\u{301}") == "caf\u{E9}")
        #expect(store.keyValueObservedName(of: "taskCount") == "taskCount")
        #expect(store.keyValueObservedName(of: "taskflow.taskCount") == nil)
    }

    #if !canImport(ObjectiveC)
    @Test func onLinuxNoKeyIsWatchedAloneAndStreamsStillComeAndGo() {
        let store = UserDefaultsKVStore(suiteName: "ForgeKVStoreTests.keyObservation")
        #expect(store.observeChanges(of: "taskCount") {} == nil)
        let reactive = ReactiveKVStore(store)
        var streams = [reactive.stream(KVKey<Int>("taskCount"))]
        #expect(reactive.watchedNames == ["taskCount": ["taskCount"]], "asked once, and not again while it streams")
        streams.removeAll()
        #expect(reactive.watchedNames.isEmpty)
    }
    #endif
}

/// An in-memory store that watches single keys when asked, records which watches are live, and fires them.
private final class KeyWatchingStore: KVChangeObserving {
    /// A live watch: the name watched and whom to tell.
    private struct Watch {
        /// The name watched.
        let name: String
        /// Called when the test fires the name.
        let onChange: @Sendable () -> Void
    }

    /// The values, written around the wrapper by the tests as another process would.
    let base = InMemoryKVStore()

    /// Whether a watch tells of a change as it starts and as it ends, on the caller's thread.
    private let callsBackWhileStartingAndEnding: Bool

    /// The live watches by number, and the number given to the last.
    private let watches = LockedState((last: 0, live: [Int: Watch]()))

    /// Creates a store with no value and no watch; `callsBackWhileStartingAndEnding` has each watch tell of a change
    /// from inside the calls that start and end it.
    init(callsBackWhileStartingAndEnding: Bool = false) {
        self.callsBackWhileStartingAndEnding = callsBackWhileStartingAndEnding
    }

    /// The names of the live watches, sorted, one entry per watch.
    var liveWatches: [String] {
        watches.withLock { $0.live.values.map(\.name) }.sorted()
    }

    /// How many watches were started.
    var watchesStarted: Int {
        watches.withLock { $0.last }
    }

    /// Tells the live watches of `name` that it changed, outside the lock, as a store's notification would.
    func fire(_ name: String) {
        let observers = watches.withLock { $0.live.values.filter { $0.name == name }.map(\.onChange) }
        for onChange in observers { onChange() }
    }

    /// Watches `key` until the returned observation ends.
    func observeChanges(of key: String, _ onChange: @escaping @Sendable () -> Void) -> ChangeObservation? {
        let id = watches.withLock { watches in
            watches.last += 1
            watches.live[watches.last] = Watch(name: key, onChange: onChange)
            return watches.last
        }
        let callsBack = callsBackWhileStartingAndEnding
        if callsBack { onChange() }
        return ChangeObservation { [watches] in
            watches.withLock { _ = $0.live.removeValue(forKey: id) }
            if callsBack { onChange() }
        }
    }

    /// Tells of no change to the whole store.
    func observeChanges(_ onChange: @escaping @Sendable (_ key: String?) -> Void) -> ChangeObservation {
        ChangeObservation {}
    }

    /// Reads `key` from the in-memory values.
    func get<T: Codable & Sendable>(_ key: KVKey<T>) -> T? {
        base.get(key)
    }

    /// Reads `key` from the in-memory values, and throws what they throw.
    func value<T: Codable & Sendable>(for key: KVKey<T>) throws -> T? {
        try base.value(for: key)
    }

    /// Stores `value` in the in-memory values.
    func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) throws {
        try base.set(key, value: value)
    }

    /// Removes `key` from the in-memory values.
    func remove<T: Codable & Sendable>(_ key: KVKey<T>) throws {
        try base.remove(key)
    }

    /// Whether the in-memory values hold `key`.
    func contains<T: Codable & Sendable>(_ key: KVKey<T>) -> Bool {
        base.contains(key)
    }

    /// Removes every in-memory value.
    func removeAll() throws {
        try base.removeAll()
    }

    /// The keys of the in-memory values.
    func keys() throws -> [String] {
        try base.keys()
    }
}
