import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// `reclaimExpiredValues(limit:)` removes up to `limit` values: none for a limit of 0 or less, on the twin and the disk
/// store alike, through their synchronous and asynchronous forms and through the backend call itself.
struct ReclaimLimitTests {
    /// Stores `count` values that expire in ten seconds, then moves the clock past them.
    private func storeExpired(_ count: Int, in store: some ExpiringKVStoring, clock: ManualExpiryClock) throws {
        for index in 0..<count {
            try store.set(KVKey<String>("expired.\(index)"), value: "gone", expiresAfter: .seconds(10))
        }
        clock.advance(by: .seconds(10))
    }

    @Test func aLimitOfZeroOrLessRemovesNothingFromTheTwin() async throws {
        let clock = ManualExpiryClock()
        let store = InMemoryKVStore(expiry: KVExpiry(clock: clock))
        try storeExpired(3, in: store, clock: clock)

        #expect(try store.reclaimExpiredValues(limit: 0) == 0)
        #expect(try store.reclaimExpiredValues(limit: -5) == 0)
        #expect(try await (store as any AsyncExpiringKVStoring).reclaimExpiredValues(limit: 0) == 0)
        #expect(try store.removeExpiredValues(at: clock.now, limit: -1) == [], "the backend call takes it as 0")
        #expect(try store.reclaimExpiredValues(limit: 10) == 3, "the three expired values were all still there")
    }

    @Test func aLimitOfZeroOrLessRemovesNothingFromTheDiskStore() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = DiskKVStore(directory: .custom(folder), namespace: "limit", expiry: KVExpiry(clock: clock))
            try storeExpired(3, in: store, clock: clock)

            #expect(try store.reclaimExpiredValues(limit: 0) == 0)
            #expect(try store.reclaimExpiredValues(limit: -5) == 0)
            #expect(try store.removeExpiredValues(at: clock.now, limit: 0) == [])
            #expect(try store.reclaimExpiredValues(limit: 10) == 3, "the three expired values were all still there")
        }
    }

    @Test func aReaperTakesABatchSizeBelowOneAsOne() async throws {
        let clock = ManualExpiryClock()
        let store = InMemoryKVStore(expiry: KVExpiry(clock: clock))
        try storeExpired(3, in: store, clock: clock)
        let reaper = ExpiryReaper(store: store, batchSize: 0, maxBatchesPerPass: 2)

        #expect(reaper.batchSize == 1)
        #expect(try await reaper.reclaimOnce() == 2, "two batches of one")
    }
}
