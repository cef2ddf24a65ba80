internal import ForgeCore

/// The changes every ``UserDefaultsKVStore`` of the process makes, by domain, passed to the observers of that domain:
/// how a stream over one store sees what the other stores of the same domain write.
///
/// `UserDefaults` keeps one copy of a suite's values per process, shared by all its instances of that suite, but
/// tells no observer of a change made through another instance (and on Linux none at all). So each store posts its
/// changes here once made: the key, or nil after a `removeAll()`. Stores of one domain share the hub's entry by
/// ``UserDefaultsKVStore/domainName``, so `UserDefaultsKVStore()` and a store on the app's own domain by name are one.
///
/// Observers are called on the writer's thread, after the change, and never with the hub's lock held: an observer
/// may read the store, post, or end observations (its own too) without a deadlock. An observation that ends while a
/// post is under way may still be called by that post.
final class DefaultsChangeHub: Sendable {
    /// The observers of each domain, by number.
    private struct Subscribers {
        /// The number given to the last observer.
        var last = 0
        /// Each domain's observers, by number; a domain with none has no entry.
        var byDomain: [String: [Int: @Sendable (_ key: String?) -> Void]] = [:]
    }

    /// The hub of this process.
    static let shared = DefaultsChangeHub()

    /// Every domain's observers, behind one lock.
    private let subscribers = LockedState(Subscribers())

    /// Calls `onChange` with each key a store of `domain` changes in this process, or nil when it removed them all,
    /// until the returned observation ends.
    func observe(_ domain: String, onChange: @escaping @Sendable (_ key: String?) -> Void) -> ChangeObservation {
        let id = subscribers.withLock { subscribers in
            subscribers.last += 1
            subscribers.byDomain[domain, default: [:]][subscribers.last] = onChange
            return subscribers.last
        }
        return ChangeObservation { [self] in
            subscribers.withLock { subscribers in
                subscribers.byDomain[domain]?[id] = nil
                if subscribers.byDomain[domain]?.isEmpty == true { subscribers.byDomain[domain] = nil }
            }
        }
    }

    /// Tells the observers of `domain` that `key` changed there, nil when any key may have; on Apple platforms also
    /// the other processes, through ``DefaultsProcessNotice``.
    func post(_ key: String?, in domain: String) {
        let observers = subscribers.withLock { Array(($0.byDomain[domain] ?? [:]).values) }
        // Outside the lock: an observer reads the store, and may end its observation.
        for observer in observers { observer(key) }
        #if canImport(notify)
        DefaultsProcessNotice.post(in: domain)
        #endif
    }

    /// The number of observers of `domain`, for tests.
    func observerCount(of domain: String) -> Int {
        subscribers.withLock { $0.byDomain[domain]?.count ?? 0 }
    }
}
