import ForgeServiceLifecycle
import ForgeKVStore
import ForgeStorageTesting
import Logging
import ServiceLifecycle
import Testing

/// `ExpiryReaperService` in a real `ServiceGroup`: it reaps on the store's clock and ends with the group.
struct ExpiryReaperServiceTests {
    @Test func itReapsWhileTheGroupRunsAndEndsAtAGracefulShutdown() async throws {
        let clock = ManualExpiryClock()
        let sessions = InMemoryKVStore(expiry: KVExpiry(clock: clock, reclaimInterval: .seconds(86_400)))
        try sessions.set(KVKey<String>("session.a"), value: "a", expiresAfter: .seconds(10))
        try sessions.set(KVKey<String>("session.b"), value: "b")
        let (passes, pass) = AsyncStream<Int>.makeStream()
        let reaper = ExpiryReaper(store: sessions, interval: .seconds(60))
        let service = ExpiryReaperService(reaper) { pass.yield((try? $0.get()) ?? -1) }
        let group = ServiceGroup(services: [service], logger: Logger(label: "ExpiryReaperServiceTests"))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var results = passes.makeAsyncIterator()
            #expect(await results.next() == 0)
            clock.advance(by: .seconds(60))
            #expect(await results.next() == 1, "the expired session is reclaimed at the next pass")
            await group.triggerGracefulShutdown()
            try await tasks.next()
        }
        #expect(sessions.count == 1)
    }

    @Test func theServiceEndsWhenItsTaskIsCancelled() async {
        let service = ExpiryReaperService(ExpiryReaper(store: InMemoryKVStore(), interval: .seconds(3600)))
        let running = Task { await service.run() }
        running.cancel()
        await running.value
    }
}
