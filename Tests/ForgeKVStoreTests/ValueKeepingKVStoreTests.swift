import ForgeKVStore
import ForgeStorageTesting
import Foundation
import Testing

/// A store that keeps each `KVStoredValue` as it is given, as `KVBackend`'s documentation sample does, reads what a
/// disk store reads: the value the caller wrote is never handed back as it was (a class instance shared between
/// reads, a subclass read as itself), so the store passes the whole suite.
struct ValueKeepingKVStoreTests {
    /// The documentation's store: a dictionary of the values as given.
    final class ValueKeepingStore: KVStoring, KVBackend, @unchecked Sendable {
        // Safe to share: `values` is read and written only under `lock`.
        private let lock = NSLock()
        private var values: [String: KVStoredValue] = [:]

        func storedValue(named name: String) -> KVStoredValue? { lock.withLock { values[name] } }
        func store(_ value: KVStoredValue, named name: String) { lock.withLock { values[name] = value } }
        func removeValue(named name: String) { _ = lock.withLock { values.removeValue(forKey: name) } }
        func storedNames() -> [String] { lock.withLock { Array(values.keys) } }
        func removeAll() { lock.withLock { values.removeAll() } }
    }

    /// A value that changes after it is written: a read must return what was written, as on disk.
    final class Counter: Codable, @unchecked Sendable {
        var count: Int

        init(count: Int) { self.count = count }
    }

    @Test func passesTheConformanceSuite() async {
        await KVStoringConformance.run { ValueKeepingStore() }
    }

    @Test func aReadNeverReturnsTheInstanceThatWasWritten() throws {
        let store = ValueKeepingStore()
        let written = Counter(count: 1)
        try store.set(KVKey<Counter>("counter"), value: written)
        written.count = 2

        let read = try #require(store.get(KVKey<Counter>("counter")))
        #expect(read !== written)
        #expect(read.count == 1)
    }
}
