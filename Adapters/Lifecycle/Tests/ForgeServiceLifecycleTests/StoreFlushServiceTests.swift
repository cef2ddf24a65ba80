import ForgeServiceLifecycle
import InMemoryLogging
import Logging
import ServiceLifecycle
import Testing

/// `StoreFlushService` in a real `ServiceGroup`: it flushes its stores when the group shuts down gracefully, when its
/// task is cancelled, and every interval if asked; a failure at the end is thrown, a periodic one logged.
struct StoreFlushServiceTests {
    private let logger = Logger(label: "ForgeServiceLifecycleTests")

    @Test func aGracefulShutdownFlushesWhatIsPending() async throws {
        let store = BufferedStore()
        await store.write("a")
        let group = ServiceGroup(services: [StoreFlushService(flushing: store)], logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            await store.write("b")
            await group.triggerGracefulShutdown()
            try await tasks.next()
        }
        #expect(await store.written == ["a", "b"])
        #expect(await store.pending.isEmpty)
    }

    @Test func withoutAnIntervalNothingIsFlushedBeforeTheShutdown() async throws {
        let store = BufferedStore()
        let service = StoreFlushService(flushing: store)
        try await testGracefulShutdownOf(service) {
            await store.write("a")
            #expect(await store.written.isEmpty)
        }
        #expect(await store.written == ["a"])
    }

    @Test func aCancellationFlushesToo() async throws {
        let store = BufferedStore()
        await store.write("a")
        let running = Task { try await StoreFlushService(flushing: store).run() }
        running.cancel()
        try await running.value
        #expect(await store.written == ["a"])
    }

    @Test func anIntervalFlushesWhileTheServiceRuns() async throws {
        let store = BufferedStore()
        let group = ServiceGroup(
            services: [StoreFlushService(flushing: store, every: .milliseconds(1))],
            logger: logger
        )
        var flushes = store.flushes.makeAsyncIterator()
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            for entry in ["a", "b", "c"] {
                await store.write(entry)
                // A flush of the interval writes it, before the shutdown.
                while await store.written.last != entry, await flushes.next() != nil {}
                #expect(await store.written.last == entry)
            }
            await group.triggerGracefulShutdown()
            try await tasks.next()
        }
        #expect(await store.written == ["a", "b", "c"])
    }

    @Test func aFailedPeriodicFlushIsLoggedAndTheNextOneWrites() async throws {
        let store = BufferedStore(failures: 1)
        let records = InMemoryLogHandler()
        let service = StoreFlushService(
            flushing: store,
            every: .milliseconds(1),
            logger: Logger(label: "flush", factory: { _ in records })
        )
        await store.write("a")
        var flushes = store.flushes.makeAsyncIterator()
        try await testGracefulShutdownOf(service) {
            #expect(await flushes.next() == 1)
            #expect(await flushes.next() == 2)
            #expect(await store.written == ["a"])
        }
        let warnings = records.entries.filter { $0.level == .warning }
        #expect(warnings.count == 1)
        #expect(warnings.first?.error as? BufferedStore.FlushFailed == BufferedStore.FlushFailed())
    }

    @Test func aFailedFlushAtTheEndIsThrownAfterTheOtherStoresFlushed() async throws {
        let failing = BufferedStore(failures: 1)
        let other = BufferedStore()
        await other.write("a")
        let group = ServiceGroup(services: [StoreFlushService(flushing: failing, other)], logger: logger)
        await group.triggerGracefulShutdown()
        await #expect(throws: BufferedStore.FlushFailed()) { try await group.run() }
        #expect(await other.written == ["a"])
    }

    /// Runs `service` in a group of its own while `body` runs, then shuts the group down gracefully and waits for it.
    private func testGracefulShutdownOf(
        _ service: StoreFlushService,
        _ body: () async throws -> Void
    ) async throws {
        let group = ServiceGroup(services: [service], logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            try await body()
            await group.triggerGracefulShutdown()
            try await tasks.next()
        }
    }
}
