import ForgeKVStore
import ForgeStorageTesting
import Testing

/// The reaper reclaims a store's expired values by itself, in bounded batches, on the store's clock.
struct ExpiryReaperTests {
    /// A twin on a manual clock holding `count` values that expire after ten seconds, and one that never does.
    private func store(holding count: Int) throws -> (InMemoryKVStore, ManualExpiryClock) {
        let clock = ManualExpiryClock()
        let store = InMemoryKVStore(expiry: KVExpiry(clock: clock, reclaimInterval: .seconds(86_400)))
        for index in 0..<count {
            try store.set(KVKey<Int>("session.\(index)"), value: index, expiresAfter: .seconds(10))
        }
        try store.set(KVKey<Int>("forever"), value: 1)
        return (store, clock)
    }

    @Test func aPassRemovesBatchesUntilOneIsNotFull() async throws {
        let (store, clock) = try store(holding: 25)
        let reaper = ExpiryReaper(store: store, batchSize: 10)
        #expect(try await reaper.reclaimOnce() == 0, "nothing has expired yet")
        clock.advance(by: .seconds(10))
        #expect(try await reaper.reclaimOnce() == 25)
        #expect(store.count == 1, "the value without a lifetime stays")
    }

    @Test func aPassRunsNoMoreThanItsBatches() async throws {
        let (store, clock) = try store(holding: 25)
        let reaper = ExpiryReaper(store: store, batchSize: 5, maxBatchesPerPass: 2)
        clock.advance(by: .seconds(10))
        #expect(try await reaper.reclaimOnce() == 10, "two batches of five")
        #expect(store.count == 16)
    }

    @Test func runningReapsAfterEachIntervalOnTheStoresClock() async throws {
        let (store, clock) = try store(holding: 3)
        let reaper = ExpiryReaper(store: store, interval: .seconds(60))
        let (passes, pass) = AsyncStream<Int>.makeStream()
        let running = Task {
            await reaper.run { pass.yield((try? $0.get()) ?? -1) }
            pass.finish()
        }
        var results = passes.makeAsyncIterator()
        #expect(await results.next() == 0, "the first pass runs at once and finds nothing expired")
        clock.advance(by: .seconds(60))
        #expect(await results.next() == 3, "the pass one interval later reclaims what expired meanwhile")
        #expect(store.count == 1)
        running.cancel()
        #expect(await results.next() == nil, "cancelled, the reaper returns")
    }

    @Test func anAsynchronousStoreIsReapedToo() async throws {
        let (store, clock) = try store(holding: 4)
        let asynchronous: any AsyncExpiringKVStoring = store
        let reaper = ExpiryReaper(store: asynchronous, batchSize: 3)
        clock.advance(by: .seconds(10))
        #expect(try await reaper.reclaimOnce() == 4)
    }
}
