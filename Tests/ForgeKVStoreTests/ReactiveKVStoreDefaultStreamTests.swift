import ForgeStorageTesting
import Testing

@testable import ForgeKVStore

/// The stream of a key with a default: the stored value, or the default while none is stored or it does not decode,
/// each value the stream reads once, a stored value identical to the default included.
struct ReactiveKVStoreDefaultStreamTests {
    let count = KVKey<Int>("taskflow.taskCount").withDefault(0)

    @Test func theStreamStartsWithTheDefaultThenEmitsEachStoredValueAndTheDefaultAfterARemove() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        var values = reactive.stream(count).makeAsyncIterator()
        #expect(await values.next() == 0)
        try reactive.set(count, value: 3)
        #expect(await values.next() == 3)
        try reactive.set(count.withoutDefault, value: 4)
        #expect(await values.next() == 4)
        try reactive.remove(count)
        #expect(await values.next() == 0)
        try reactive.set(count, value: 5)
        try reactive.removeAll()
        #expect(await values.next() == 5)
        #expect(await values.next() == 0)
    }

    @Test func theStreamStartsWithTheStoredValue() async throws {
        let base = InMemoryKVStore()
        try base.set(count.withoutDefault, value: 9)
        var values = ReactiveKVStore(base).stream(count).makeAsyncIterator()
        #expect(await values.next() == 9)
    }

    /// Decided: the stream is of the value read, so storing the default where nothing was stored, or removing a
    /// stored default, changes nothing it emits; `contains` tells the two apart.
    @Test func aChangeBetweenNothingStoredAndAStoredDefaultEmitsNothing() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        var values = reactive.stream(count).makeAsyncIterator()
        #expect(await values.next() == 0)
        try reactive.set(count, value: 0)
        #expect(reactive.contains(count))
        try reactive.set(count, value: 7)
        #expect(await values.next() == 7, "the stored default was not emitted again")
        try reactive.set(count, value: 0)
        #expect(await values.next() == 0)
        try reactive.remove(count)
        #expect(!reactive.contains(count))
        try reactive.set(count, value: 8)
        #expect(await values.next() == 8, "the remove of the stored default was not emitted")
    }

    @Test func aValueThatDoesNotDecodeIsEmittedAsTheDefault() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        var values = reactive.stream(count).makeAsyncIterator()
        #expect(await values.next() == 0)
        try reactive.set(count, value: 2)
        #expect(await values.next() == 2)
        try reactive.set(KVKey<String>(count.key), value: "many")
        #expect(await values.next() == 0)
    }

    @Test func aStreamOfAnOptionalKeyEmitsAStoredNilApartFromTheDefault() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let projectName = KVKeyWithDefault<String?>("taskflow.projectName", default: "Inbox")
        var values = reactive.stream(projectName).makeAsyncIterator()
        #expect(await values.next() == "Inbox")
        try reactive.set(projectName, value: nil)
        #expect(await values.next() == .some(nil))
        try reactive.remove(projectName)
        #expect(await values.next() == "Inbox")
    }

    @Test func aStreamOfAKeyWithMigrationsFollowsTheOlderName() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let theme = KVKeyWithDefault("taskflow.theme", default: "light", migrations: .renamed(from: "theme"))
        var values = reactive.stream(theme).makeAsyncIterator()
        #expect(await values.next() == "light")
        try reactive.set(KVKey<String>("theme"), value: "dark")
        #expect(await values.next() == "dark")
        try reactive.remove(theme)
        #expect(await values.next() == "light")
    }

    @Test func everyStreamingStoreHasTheStreamThroughItsProtocol() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let streaming: any AsyncKVStreaming = reactive.reportingDecodingFailures { _ in }
        var values = streaming.stream(count).makeAsyncIterator()
        #expect(await values.next() == 0)
        try await streaming.set(count, value: 1)
        #expect(await values.next() == 1)
    }

    @Test func endingTheStreamEndsTheStreamOfTheKeyWithoutItsDefault() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let consumer = Task {
            for await _ in reactive.stream(count) {}
        }
        // Bounded, so a stream that never starts or never ends fails the test rather than hangs it.
        for _ in 0..<1_000 where reactive.observerCount == 0 {
            await Task.yield()
        }
        #expect(reactive.observerCount == 1)
        consumer.cancel()
        await consumer.value
        for _ in 0..<1_000 where reactive.observerCount > 0 {
            await Task.yield()
        }
        #expect(reactive.observerCount == 0)

        _ = reactive.stream(count)  // released at once, which ends it
        for _ in 0..<1_000 where reactive.observerCount > 0 {
            await Task.yield()
        }
        #expect(reactive.observerCount == 0)
    }
}
