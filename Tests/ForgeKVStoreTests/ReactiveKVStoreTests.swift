import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeKVStore

struct ReactiveKVStoreTests {
    let key = KVKey<Int>("taskflow.taskCount")

    @Test func streamEmitsTheCurrentValueThenEveryChange() async throws {
        let base = InMemoryKVStore()
        try base.set(key, value: 1)
        let reactive = ReactiveKVStore(base)
        var values = reactive.stream(key).makeAsyncIterator()
        #expect(await values.next() == .some(1))
        try reactive.set(key, value: 10)
        #expect(await values.next() == .some(10))
        try reactive.set(key, value: 20)
        #expect(await values.next() == .some(20))
    }

    @Test func aLaterStreamStartsFromWhatTheStoreHoldsAfterAWriteAroundTheWrapper() async throws {
        let base = InMemoryKVStore()
        let reactive = ReactiveKVStore(base)
        var first = reactive.stream(key).makeAsyncIterator()
        #expect(await first.next() == .some(nil))
        // Written to the wrapped store directly, as another instance or process would: the wrapper cannot see it,
        // but a stream made afterwards reads it.
        try base.set(key, value: 5)
        var second = reactive.stream(key).makeAsyncIterator()
        #expect(await second.next() == .some(5))
        try reactive.set(key, value: 6)
        #expect(await second.next() == .some(6))
    }

    @Test func streamOfAnUnsetKeyStartsWithNil() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        var values = reactive.stream(key).makeAsyncIterator()
        #expect(await values.next() == .some(nil))
    }

    @Test func duplicateValuesAreSkipped() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        var values = reactive.stream(key).makeAsyncIterator()
        #expect(await values.next() == .some(nil))
        try reactive.set(key, value: 5)
        try reactive.set(key, value: 5)
        try reactive.set(key, value: 5)
        try reactive.set(key, value: 6)
        #expect(await values.next() == .some(5))
        #expect(await values.next() == .some(6))
    }

    @Test func removeAndRemoveAllEmitNilToTheAffectedStreams() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let other = KVKey<String>("other")
        var counts = reactive.stream(key).makeAsyncIterator()
        var names = reactive.stream(other).makeAsyncIterator()
        #expect(await counts.next() == .some(nil))
        #expect(await names.next() == .some(nil))

        try reactive.set(key, value: 1)
        try reactive.set(other, value: "a")
        #expect(await counts.next() == .some(1))
        #expect(await names.next() == .some("a"))

        try reactive.remove(key)
        try reactive.set(other, value: "b")
        #expect(await counts.next() == .some(nil))
        #expect(await names.next() == .some("b"))

        try reactive.set(key, value: 2)
        try reactive.removeAll()
        #expect(await counts.next() == .some(2))
        #expect(await counts.next() == .some(nil))
        #expect(await names.next() == .some(nil))
    }

    @Test func everyObserverOfAKeySeesEveryChange() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let streams = (0..<20).map { _ in reactive.stream(key) }
        for value in 1...50 {
            try reactive.set(key, value: value)
        }
        try reactive.remove(key)
        let expected: [Int?] = [nil] + (1...50).map { $0 } + [nil]
        for stream in streams {
            var seen: [Int?] = []
            for await value in stream {
                seen.append(value)
                if seen.count == expected.count { break }
            }
            #expect(seen == expected)
        }
    }

    @Test func aWriteNeverWaitsForASlowObserver() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        // Nobody reads this stream while 1,000 writes go through; each write returns at once.
        let stream = reactive.stream(key)
        for value in 1...1_000 {
            try reactive.set(key, value: value)
        }
        var seen: [Int?] = []
        for await value in stream {
            seen.append(value)
            if seen.count == 1_001 { break }
        }
        #expect(seen == [nil] + (1...1_000).map { $0 })
    }

    @Test func aCancelledStreamReleasesItsObserver() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let started = AsyncStream<Void>.makeStream()
        let consumer = Task {
            for await _ in reactive.stream(key) {
                started.continuation.yield()
            }
        }
        var startedIterator = started.stream.makeAsyncIterator()
        await startedIterator.next()
        #expect(reactive.observerCount == 1)
        consumer.cancel()
        await consumer.value
        #expect(reactive.observerCount == 0)
        // Writes after the cancellation still work and reach new streams.
        try reactive.set(key, value: 3)
        var fresh = reactive.stream(key).makeAsyncIterator()
        #expect(await fresh.next() == .some(3))
    }

    @Test func aDroppedStreamReleasesItsObserver() throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        do {
            let stream = reactive.stream(key)
            _ = stream
            #expect(reactive.observerCount == 1)
        }
        #expect(reactive.observerCount == 0)
    }

    @Test func streamsEndWhenTheStoreIsReleased() async throws {
        var reactive: ReactiveKVStore? = ReactiveKVStore(InMemoryKVStore())
        let stream = try #require(reactive).stream(key)
        reactive = nil
        var values: [Int?] = []
        for await value in stream { values.append(value) }
        #expect(values == [nil])
    }

    @Test func writesThatFailEmitNothing() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let ratio = KVKey<Double>("ratio")
        var values = reactive.stream(ratio).makeAsyncIterator()
        #expect(await values.next() == .some(nil))
        #expect(throws: KVStoreError.self) { try reactive.set(ratio, value: .nan) }
        try reactive.set(ratio, value: 0.5)
        #expect(await values.next() == .some(0.5))
    }

    @Test func observersWithDifferentTypesForOneKeyEachReadTheirOwnType() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        var asInt = reactive.stream(KVKey<Int>("n")).makeAsyncIterator()
        var asDouble = reactive.stream(KVKey<Double>("n")).makeAsyncIterator()
        #expect(await asInt.next() == .some(nil))
        #expect(await asDouble.next() == .some(nil))
        try reactive.set(KVKey<Int>("n"), value: 4)
        #expect(await asInt.next() == .some(4))
        #expect(await asDouble.next() == .some(4.0))
    }

    @Test func concurrentWritersEndOnTheStoredValue() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let stream = reactive.stream(key)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for round in 0..<50 { try? reactive.set(key, value: task * 100 + round) }
                }
            }
        }
        let sentinel = -1
        try reactive.set(key, value: sentinel)
        var last: Int??
        for await value in stream {
            last = value
            if value == sentinel { break }
        }
        #expect(last == .some(sentinel))
        #expect(reactive.get(key) == sentinel)
    }

    @Test func wrapsADiskStore() async throws {
        try await withTemporaryFolder { folder in
            let reactive = ReactiveKVStore(DiskKVStore(directory: .custom(folder), namespace: "reactive"))
            var values = reactive.stream(key).makeAsyncIterator()
            #expect(await values.next() == .some(nil))
            try reactive.set(key, value: 7)
            #expect(await values.next() == .some(7))
            #expect(DiskKVStore(directory: .custom(folder), namespace: "reactive").get(key) == 7)
        }
    }
}

extension ReactiveKVStoreTests {
    @Test func aChangeToAValueEqualButStoredDifferentlyIsEmitted() async throws {
        let base = InMemoryKVStore()
        let reactive = ReactiveKVStore(base)
        let offset = KVKey<Double>("offset")
        var values = reactive.stream(offset).makeAsyncIterator()
        #expect(await values.next() == .some(nil))
        try reactive.set(offset, value: 0.0)
        try reactive.set(offset, value: -0.0)
        try reactive.set(offset, value: -0.0)
        try reactive.set(offset, value: 1.0)

        #expect(await values.next().flatMap { $0 }?.sign == .plus)
        let negativeZero = await values.next().flatMap { $0 }
        #expect(negativeZero == 0 && negativeZero?.sign == .minus, "the last value is what the store holds")
        #expect(await values.next() == .some(1.0), "a repeated -0.0 is skipped")
        #expect(base.get(offset) == 1.0)
    }
}

extension ReactiveKVStoreTests {
    @Test func aChangeIsReadOncePerObservedTypeAndNotForOtherKeys() async throws {
        let log = OperationLog()
        let reactive = ReactiveKVStore(InMemoryKVStore(log: log))
        var counts = (0..<100).map { _ in reactive.stream(key).makeAsyncIterator() }
        var asDouble = reactive.stream(KVKey<Double>(key.key)).makeAsyncIterator()
        var others = (0..<100).map { _ in reactive.stream(KVKey<Int>("other")).makeAsyncIterator() }

        log.removeAll()
        try reactive.set(key, value: 3)
        // The wrapper reads once per type after its own write, and once more per type when the store tells of the
        // change (an in-memory store tells at once): never once per stream.
        #expect(log.entries(.read).map(\.target) == Array(repeating: key.key, count: 4), "per type, not per stream")

        log.removeAll()
        try reactive.set(KVKey<Int>("unobserved"), value: 1)
        #expect(log.entries(.read).isEmpty, "a key nobody observes is not read")

        for index in counts.indices {
            #expect(await counts[index].next() == .some(nil))
            #expect(await counts[index].next() == .some(3))
        }
        #expect(await asDouble.next() == .some(nil))
        #expect(await asDouble.next() == .some(3.0))
        for index in others.indices { #expect(await others[index].next() == .some(nil)) }
    }

    @Test func aLaterStreamStartsFromTheCurrentValueAndFollowsTheEarlierOnes() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let first = reactive.stream(key)
        try reactive.set(key, value: 1)
        let second = reactive.stream(key)
        try reactive.set(key, value: 1)
        try reactive.set(key, value: 2)
        try reactive.remove(key)

        #expect(await Array(first.prefix(4)) == [nil, 1, 2, nil])
        #expect(await Array(second.prefix(3)) == [1, 2, nil])
    }

    @Test func streamsMadeDuringWritesRepeatNoValueAndEndOnTheStoredValue() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let streams = await withTaskGroup(of: [AsyncStream<Int?>].self) { group in
            for task in 0..<4 {
                group.addTask {
                    for round in 0..<200 { try? reactive.set(key, value: task * 1_000 + round) }
                    return []
                }
            }
            group.addTask {
                (0..<50).map { _ in reactive.stream(key) }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        let sentinel = -1
        try reactive.set(key, value: sentinel)
        for stream in streams {
            var seen: [Int?] = []
            for await value in stream {
                seen.append(value)
                if value == sentinel { break }
            }
            #expect(seen.last == .some(sentinel))
            #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 != $1 }, "no value twice in a row")
        }
    }
}
