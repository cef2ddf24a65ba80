import ForgeCrypt
import ForgeTestSupport
import Testing

/// Every secret store's async form runs on its caller's executor.
///
/// From the main actor, a `get` or `set` through `AsyncCryptStoring` costs what the synchronous call costs, with no
/// switch of threads. Counted on an actor whose
/// executor counts its jobs, not timed.
struct CryptStoreCallerExecutorTests {
    @Test(arguments: CryptStoreKind.allCases)
    func asyncCallsRunOnTheCaller(kind: CryptStoreKind) async throws {
        try await kind.withFixture { fixture in
            let asynchronous = try #require(try fixture.makeStore() as? any AsyncCryptStoring)
            let key = CryptKey<String>(key: "token")
            let caller = CallerActor()
            #expect(try await caller.jobsEnqueued { try await asynchronous.set("secret", for: key) } == 0)
            #expect(try await caller.jobsEnqueued { _ = try await asynchronous.get(key) } == 0)
            #expect(try await caller.jobsEnqueued { _ = try await asynchronous.contains(key) } == 0)
            #expect(try await caller.jobsEnqueued { _ = try await asynchronous.keys() } == 0)
            #expect(try await caller.jobsEnqueued { try await asynchronous.delete(key) } == 0)
        }
    }
}
