import ForgeKVStore
import ForgeTestSupport
import Testing

/// Every key-value store's async form runs on its caller's executor.
///
/// From the main actor, a `get` or `set` through `AsyncKVStoring` costs what the synchronous call costs, with no
/// switch of threads. Counted on an actor whose
/// executor counts its jobs, not timed.
struct KVStoreCallerExecutorTests {
    @Test(arguments: KVStoreKind.allCases)
    func asyncCallsRunOnTheCaller(backend: KVStoreKind) async throws {
        try await backend.withStore { store in
            let asynchronous = try #require(store as? any AsyncKVStoring)
            let key = KVKey<Int>("count")
            let caller = CallerActor()
            #expect(try await caller.jobsEnqueued { try await asynchronous.set(key, value: 3) } == 0)
            #expect(try await caller.jobsEnqueued { _ = try await asynchronous.get(key) } == 0)
            #expect(try await caller.jobsEnqueued { _ = try await asynchronous.value(for: key) } == 0)
            #expect(try await caller.jobsEnqueued { _ = try await asynchronous.contains(key) } == 0)
            #expect(try await caller.jobsEnqueued { _ = try await asynchronous.keys() } == 0)
            #expect(try await caller.jobsEnqueued { try await asynchronous.remove(key) } == 0)
        }
    }
}
