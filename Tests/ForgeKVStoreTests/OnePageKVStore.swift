import ForgeCore
import ForgeKVStore
import Foundation

/// A settings store on one page, as a user writes one over a dictionary: the requirements of ``KVBackend`` without a
/// default, each value kept whole (its lifetime with it), a reclaim of what expired, a store only where nothing lives
/// (one step under the lock), and nothing else.
///
/// Its lock is the library's `LockedState`: ThreadSanitizer reports the standard library's `Mutex` on Linux, whose
/// futex it does not see, as a race under the suites' concurrency checks.
///
/// `OnePageKVStoreTests` holds it to the public suites (settings in both forms, lifetimes), alone and seen through the
/// seam for events and for faults; streams come from a `ReactiveKVStore` over it.
final class OnePageKVStore: KVStoring, KVBackend, ExpiringKVStoring, AsyncExpiringKVStoring {
    /// The values every instance on it shares, as a database's are.
    final class Storage: Sendable {
        let values = LockedState<[String: KVStoredValue]>([:])
    }

    let storage: Storage
    let expiry: KVExpiry?

    init(storage: Storage = Storage(), expiry: KVExpiry? = nil) {
        self.storage = storage
        self.expiry = expiry
    }

    func storedValue(named name: String) -> KVStoredValue? { storage.values.withLock { $0[name] } }

    func store(_ value: KVStoredValue, named name: String) { storage.values.withLock { $0[name] = value } }

    func storeIfAbsent(_ value: KVStoredValue, named name: String, liveAt date: Date) -> Bool {
        storage.values.withLock { values in
            if let stored = values[name], !stored.isExpired(at: date) { return false }
            values[name] = value
            return true
        }
    }

    func removeValue(named name: String) { storage.values.withLock { _ = $0.removeValue(forKey: name) } }

    func storedNames() -> [String] { storage.values.withLock { Array($0.keys) } }

    func removeAll() { storage.values.withLock { $0.removeAll() } }

    func removeExpiredValues(at date: Date, limit: Int) -> [String] {
        storage.values.withLock { values in
            let expired = values.filter { $0.value.isExpired(at: date) }.keys.prefix(max(0, limit))
            for name in expired { values[name] = nil }
            return Array(expired)
        }
    }
}
