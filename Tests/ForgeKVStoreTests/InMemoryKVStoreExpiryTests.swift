import ForgeKVStore
import ForgeStorageTesting
import Testing

/// The twin keeps lifetimes as every store does: the expiry suite on it, alone, through a `ReactiveKVStore`'s streams,
/// and through the event and fault wrappers, which pass lifetimes through.
struct InMemoryKVStoreExpiryTests {
    @Test(arguments: ExpiryConformance.checks)
    func expiresLikeEveryStore(_ check: ExpiryConformance.Check) async throws {
        let clock = ManualExpiryClock()
        let store = InMemoryKVStore(expiry: KVExpiry(clock: clock))
        let reactive = ReactiveKVStore(store)
        try await check.run(on: .init(synchronous: store, clock: clock, stream: { reactive.stream($0) }))
    }

    @Test(arguments: ExpiryConformance.checks)
    func expiresThroughTheEventWrapper(_ check: ExpiryConformance.Check) async throws {
        let clock = ManualExpiryClock()
        let store = InMemoryKVStore(expiry: KVExpiry(clock: clock)).reportingEvents { _ in }
        let reactive = ReactiveKVStore(store)
        try await check.run(on: .init(synchronous: store, clock: clock, stream: { reactive.stream($0) }))
    }

    @Test(arguments: ExpiryConformance.checks)
    func expiresThroughTheFaultWrapper(_ check: ExpiryConformance.Check) async throws {
        let clock = ManualExpiryClock()
        let store = InMemoryKVStore(expiry: KVExpiry(clock: clock)).injectingFaults()
        try await check.run(on: .init(synchronous: store, clock: clock))
    }
}
