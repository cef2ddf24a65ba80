import ForgeObservability
import ForgeStorage
import ForgeStorageTesting
import MetricsTestKit
import Testing

/// What ``StoreObservability`` counts: calls by outcome, failures by reason, durations, bytes, values that did not
/// decode and migrations, by store and label, never by key.
struct StoreObservabilityMetricsTests {
    private static let count = KVKey<Int>("count")

    @Test func callsAreCountedByOperationAndOutcomeAndTimed() throws {
        let observed = ObservedStores()
        let store = InMemoryKVStore().reportingEvents(label: "settings", to: observed.observability.record)

        try store.set(Self.count, value: 42)
        #expect(store.get(Self.count) == 42)
        #expect(store.get(Self.count) == 42)

        let settings = [("store", "kv"), ("label", "settings")]
        let metrics = observed.metrics
        #expect(metrics.counterTotal(label: StoreMetricLabels.operations, dimensions: settings) == 3)
        #expect(
            metrics.counterTotal(
                label: StoreMetricLabels.operations,
                dimensions: settings + [("operation", "read"), ("outcome", "success")]
            ) == 2
        )
        let reads = try metrics.expectTimer(StoreMetricLabels.duration, settings + [("operation", "read")])
        #expect(reads.values.count == 2 && reads.values.allSatisfy { $0 >= 0 })
        #expect(metrics.counterTotal(label: StoreMetricLabels.bytesWritten, dimensions: settings) == 2)
        #expect(metrics.counterTotal(label: StoreMetricLabels.bytesRead, dimensions: settings) == 4)
        #expect(metrics.counterTotal(label: StoreMetricLabels.failures) == 0)
    }

    @Test func failuresAreCountedByReason() async throws {
        let faults = StoreFaults()
        let observed = ObservedStores()
        let store = InMemoryFileStore(faults: faults).reportingEvents(to: observed.observability.record)
        try await store.save(Data("a".utf8), to: "a.txt")
        faults.failNext(.write, with: .outOfSpace)

        await #expect(throws: FileStoreError.self) { try await store.save(Data(), to: "b.txt") }
        await #expect(throws: FileStoreError.self) { try await store.save(Data(), to: "a.txt", overwrite: false) }

        let metrics = observed.metrics
        let files = [("store", "files"), ("label", "files"), ("operation", "write")]
        #expect(metrics.counterTotal(label: StoreMetricLabels.failures, dimensions: files) == 2)
        #expect(metrics.counterTotal(label: StoreMetricLabels.failures, dimensions: [("reason", "outOfSpace")]) == 1)
        #expect(metrics.counterTotal(label: StoreMetricLabels.failures, dimensions: [("reason", "alreadyExists")]) == 1)
        #expect(metrics.counterTotal(label: StoreMetricLabels.operations, dimensions: [("outcome", "failure")]) == 2)
    }

    @Test func expiredValuesReclaimedAreCountedWithoutTheirKeys() throws {
        let observed = ObservedStores()
        let clock = ManualExpiryClock()
        let store = InMemoryKVStore(expiry: KVExpiry(clock: clock))
            .reportingEvents(label: "sessions", to: observed.observability.record)
        for user in ["ada", "bob", "cy"] {
            try store.set(KVKey<String>("session.\(user)"), value: user, expiresAfter: .seconds(60))
        }
        clock.advance(by: .seconds(60))
        #expect(try store.reclaimExpiredValues(limit: 2) == 2)
        #expect(try store.reclaimExpiredValues(limit: 2) == 1)

        let sessions = [("store", "kv"), ("label", "sessions")]
        let metrics = observed.metrics
        #expect(metrics.counterTotal(label: StoreMetricLabels.expiredValuesReclaimed, dimensions: sessions) == 3)
        #expect(
            metrics.counterTotal(
                label: StoreMetricLabels.operations,
                dimensions: sessions + [("operation", "reclaimExpired")]
            ) == 2
        )
    }

    @Test func valuesThatDidNotDecodeAndMigrationsAreCounted() throws {
        let observed = ObservedStores()
        let store = InMemoryKVStore().reportingEvents(label: "settings", to: observed.observability.record)
        try store.set(KVKey<String>("count"), value: "many")
        try store.set(KVKey<Int>("old"), value: 3)

        #expect(store.get(Self.count) == nil)
        #expect(throws: KVStoreError.self) { try store.value(for: Self.count) }
        #expect(store.get(KVKey<Int>("new", migrations: .renamed(from: "old"))) == 3)

        let metrics = observed.metrics
        let settings = [("store", "kv"), ("label", "settings")]
        #expect(metrics.counterTotal(label: StoreMetricLabels.valuesNotDecoded, dimensions: settings) == 2)
        #expect(metrics.counterTotal(label: StoreMetricLabels.migrationsApplied, dimensions: settings) == 1)
    }

    @Test func noDimensionHoldsAKeyOrAPath() async throws {
        let observed = ObservedStores()
        let keys = InMemoryKVStore().reportingEvents(to: observed.observability.record)
        let files = InMemoryFileStore().reportingEvents(to: observed.observability.record)

        try keys.set(KVKey<Int>("user.alice.visits"), value: 1)
        try await files.save(Data(), to: "alice/notes.txt")

        let dimensions = String(reflecting: observed.metrics.counters.map(\.dimensions))
        #expect(!dimensions.contains("alice"))
    }
}
