import ForgeKVStore
import ForgeStorageTesting
import Foundation
import Synchronization
import Testing

/// The expiry policy written once above the contract: dates rounded as every store keeps them, the reclaim schedule of
/// writes, and streams of a store of your own.
struct ExpiryPolicyTests {
    @Test func aFractionalDateGivenToTheContractEndsWhereEveryStoreEndsIt() throws {
        let clock = ManualExpiryClock()
        let twin = InMemoryKVStore(expiry: KVExpiry(clock: clock))
        let value = KVStoredValue(json: Data(#""v""#.utf8), expiresAt: clock.now.addingTimeInterval(0.0004))
        #expect(value.expiresAtMilliseconds.map { $0 % 1000 } == 1, "rounded up to the next whole millisecond")
        try twin.store(value, named: "k")
        clock.advance(by: .microseconds(999))
        #expect(twin.get(KVKey<String>("k")) == "v")
        clock.advance(by: .microseconds(1))
        #expect(twin.get(KVKey<String>("k")) == nil)
    }

    @Test func writesReclaimEachValueThisInstanceStoredOnceItHasExpired() throws {
        let clock = ManualExpiryClock()
        let store = InMemoryKVStore(expiry: KVExpiry(clock: clock, reclaimInterval: .seconds(60)))
        try store.set(KVKey<Int>("a"), value: 1, expiresAfter: .seconds(10))
        try store.set(KVKey<Int>("b"), value: 2, expiresAfter: .seconds(20))
        clock.advance(by: .seconds(10))
        try store.set(KVKey<Int>("c"), value: 3)
        #expect(store.count == 2, "a went with the first write after it expired")
        clock.advance(by: .seconds(15))
        try store.set(KVKey<Int>("d"), value: 4)
        #expect(store.count == 2, "b went with the first write after it expired, within the interval")
    }

    @Test func aStreamOverAStoreOfYourOwnEndsWhenAnOlderNamesValueExpires() async throws {
        let clock = ManualExpiryClock()
        let store = ReactiveKVStore(DictionaryStore(expiry: KVExpiry(clock: clock)))
        let key = KVKey<String>("new", migrations: .renamed(from: "old"))
        try store.set(KVKey<String>("old"), value: "x", expiresAfter: .seconds(60))
        var values = store.stream(key).makeAsyncIterator()
        #expect(await values.next() == .some("x"))
        clock.advance(by: .seconds(60))
        #expect(await values.next() == .some(nil))
    }
}

/// `KVBackend`'s own example, keeping lifetimes: a store of your own.
private final class DictionaryStore: ExpiringKVStoring, KVBackend {
    private let values = Mutex<[String: KVStoredValue]>([:])
    let expiry: KVExpiry?

    init(expiry: KVExpiry) { self.expiry = expiry }

    func storedValue(named name: String) -> KVStoredValue? { values.withLock { $0[name] } }
    func store(_ value: KVStoredValue, named name: String) { values.withLock { $0[name] = value } }
    func removeValue(named name: String) { values.withLock { _ = $0.removeValue(forKey: name) } }
    func storedNames() -> [String] { values.withLock { Array($0.keys) } }
    func removeAll() { values.withLock { $0.removeAll() } }
}
