import ForgeKVStore
import ForgeStorageTesting
import Foundation
import Testing

/// The twin keeps lifetimes as every store does: the expiry suite on it, alone, through a `ReactiveKVStore`'s streams,
/// and through the event and fault wrappers, which pass lifetimes through in both forms.
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

    @Test(arguments: ExpiryConformance.checks)
    func expiresThroughEitherWrapperInTheAsynchronousForm(_ check: ExpiryConformance.Check) async throws {
        let eventsClock = ManualExpiryClock()
        let reported = InMemoryKVStore(expiry: KVExpiry(clock: eventsClock)).reportingEvents { _ in }
        try await check.run(on: .init(store: reported, clock: eventsClock))
        let faultsClock = ManualExpiryClock()
        let faulted = InMemoryKVStore(expiry: KVExpiry(clock: faultsClock)).injectingFaults()
        try await check.run(on: .init(store: faulted, clock: faultsClock))
    }
}

/// A `ReactiveKVStore` keeps lifetimes through the store it wraps: its own writes with a lifetime pass the suite, and
/// over a store that keeps none they fail with a typed error and write nothing.
struct ReactiveKVStoreExpiryTests {
    @Test(arguments: ExpiryConformance.checks)
    func expiresThroughTheWrapper(_ check: ExpiryConformance.Check) async throws {
        let clock = ManualExpiryClock()
        let reactive = ReactiveKVStore(InMemoryKVStore(expiry: KVExpiry(clock: clock)))
        try await check.run(on: .init(synchronous: reactive, clock: clock, stream: { reactive.stream($0) }))
    }

    @Test func aWriteWithALifetimeOverAStoreThatKeepsNoneFailsAndWritesNothing() throws {
        let reactive = ReactiveKVStore(UserDefaultsKVStore(suiteName: "forge.reactive.expiry.\(UUID().uuidString)"))
        let key = KVKey<String>("token")
        #expect(
            throws: KVStoreError.writeFailed(key: "token", underlying: .other("the wrapped store keeps no lifetimes"))
        ) {
            try reactive.set(key, value: "t", expiresAfter: .seconds(1))
        }
        #expect(!reactive.contains(key))
        #expect(try reactive.reclaimExpiredValues(limit: 1) == 0)
    }
}

/// A stream of a key with migrations emits nil when the value an older name holds expires.
struct MigratedKeyExpiryStreamTests {
    @Test func aStreamOfAMigratedKeyEmitsNilWhenTheOlderValueExpires() async throws {
        let clock = ManualExpiryClock()
        let store = InMemoryKVStore(expiry: KVExpiry(clock: clock))
        let old = KVKey<String>("session.v1")
        let current = KVKey<String>("session.v2", migrations: .renamed(from: old.key))
        try store.set(old, value: "t0k3n", expiresAfter: .seconds(60))
        let reactive = ReactiveKVStore(store)
        var values = reactive.stream(current).makeAsyncIterator()
        #expect(await values.next() == .some("t0k3n"))
        clock.advance(by: .seconds(60))
        #expect(await values.next() == .some(nil))
    }
}
