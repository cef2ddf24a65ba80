import ForgeKVStore
import ForgeStorageTesting
import Observation
import Testing

/// `awaitChange`, `awaitElement` and `awaitValue`: a change that comes is returned, one that never comes fails
/// with `ChangeTimeout` naming what was awaited once the limit passes, and a cancelled wait ends.
///
/// The timeouts are short (0.2 s): a check that a timeout fires needs only the wait to end, so load only delays it.
/// No check bounds the time a wait took.
@MainActor
struct AwaitChangeTests {
    let key = KVKey<Int>("taskflow.taskCount")
    let shortLimit = Duration.milliseconds(200)

    // MARK: Observation

    @Test func aChangeOfABindingReturnsTheNewValue() async throws {
        let store = ReactiveKVStore(InMemoryKVStore())
        let binding = KVBinding(key, in: store)
        let other = KVBinding(key, in: store)
        let seen = try await awaitChange(of: "binding.value") {
            binding.value
        } after: {
            other.value = 3
        }
        #expect(seen == 3)
    }

    @Test func aChangeMadeBeforeTheWaitStartsIsNotLost() async throws {
        let model = Counter()
        // The change lands in `after`, synchronously, before the wait begins: the waiter keeps it.
        let seen = try await awaitChange(of: "model.count") {
            model.count
        } after: {
            model.count = 1
        }
        #expect(seen == 1)
    }

    @Test func aChangeThatNeverComesFailsNamingWhatWasAwaitedAndTheLimit() async throws {
        let model = Counter()
        let error = await #expect(throws: ChangeTimeout.self) {
            try await awaitChange(of: "model.count", within: shortLimit) { model.count }
        }
        #expect(error == ChangeTimeout(awaited: "model.count", limit: shortLimit, reason: .timeLimitReached))
        #expect(error?.description == "no change of 'model.count' came within 0.2 seconds")
        // The observation is still installed: a change after the timeout resumes nothing twice (which would trap).
        model.count = 2
        #expect(model.count == 2)
    }

    @Test func cancellingTheWaitingTaskEndsTheWait() async throws {
        let model = Counter()
        let waiting = Task { @MainActor in
            try await awaitChange(of: "model.count", within: .seconds(3600)) { model.count }
        }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    // MARK: Sequences

    @Test func theFirstMatchingElementOfAStreamIsReturned() async throws {
        let (numbers, continuation) = AsyncStream<Int>.makeStream()
        for number in 1...5 { continuation.yield(number) }
        let found = try await awaitElement(of: "an even number", in: numbers) { $0.isMultiple(of: 2) }
        #expect(found == 2)
    }

    @Test func aStreamThatNeverYieldsAMatchFailsAfterTheLimit() async throws {
        let (numbers, continuation) = AsyncStream<Int>.makeStream()
        continuation.yield(1)
        let error = await #expect(throws: ChangeTimeout.self) {
            try await awaitElement(of: "an even number", in: numbers, within: shortLimit) { $0.isMultiple(of: 2) }
        }
        #expect(error?.reason == .timeLimitReached)
        #expect(error?.awaited == "an even number")
    }

    @Test func aStreamThatEndsBeforeAMatchFailsAtOnce() async throws {
        let (numbers, continuation) = AsyncStream<Int>.makeStream()
        continuation.yield(1)
        continuation.finish()
        let error = await #expect(throws: ChangeTimeout.self) {
            try await awaitElement(of: "an even number", in: numbers, within: .seconds(3600)) { $0.isMultiple(of: 2) }
        }
        #expect(error?.reason == .sequenceEnded)
    }

    @Test func cancellingAWaitOnAStreamEndsItsConsumer() async throws {
        let (numbers, continuation) = AsyncStream<Int>.makeStream()
        let (terminations, terminated) = AsyncStream<Void>.makeStream()
        continuation.onTermination = { _ in terminated.yield() }
        let waiting = Task { try await awaitElement(of: "a number", in: numbers, within: .seconds(3600)) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        // The task that read the stream was cancelled, and ended it: nothing keeps reading.
        var ended = terminations.makeAsyncIterator()
        #expect(await ended.next() != nil)
    }

    // MARK: Store values

    @Test func aStoreValueSetLaterIsReturned() async throws {
        let store = ReactiveKVStore(InMemoryKVStore())
        let key = key
        let setter = Task { try store.set(key, value: 3) }
        let value = try await awaitValue(of: key, in: store) { $0 == 3 }
        #expect(value == 3)
        try await setter.value
    }

    @Test func aStoreValueThatNeverComesFailsNamingTheKey() async throws {
        let store = ReactiveKVStore(InMemoryKVStore())
        let error = await #expect(throws: ChangeTimeout.self) {
            try await awaitValue(of: key, in: store, within: shortLimit) { $0 == 3 }
        }
        #expect(error?.awaited == "taskflow.taskCount")
    }
}

/// A model with one observed property.
@MainActor @Observable
private final class Counter {
    var count = 0
}
