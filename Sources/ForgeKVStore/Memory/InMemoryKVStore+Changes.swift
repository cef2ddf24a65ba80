internal import ForgeCore

extension InMemoryKVStore: KVChangeObserving {
    /// Tells of every change made to this store, which is all of its storage: each write and removal by its key as it
    /// returns, `removeAll` as nil, and the changes of a transaction key by key once it is applied.
    ///
    /// So a ``ReactiveKVStore`` over the store streams a value written to the store itself, not only through the
    /// wrapper, as one over ``DiskKVStore`` or a SQLite store does.
    public func observeChanges(_ onChange: @escaping @Sendable (_ key: String?) -> Void) -> ChangeObservation {
        let id = observers.withLock { $0.add(onChange) }
        return ChangeObservation { [weak self] in
            self?.observers.withLock { $0.remove(id) }
        }
    }

    /// Tells every observer that the value under `name` (every value, for nil) changed.
    func tell(_ name: String?) {
        for observer in observers.withLock({ $0.all }) { observer(name) }
    }
}

/// The observers of an in-memory store's changes, by the number each was given.
struct KVChangeObservers: Sendable {
    private var byID: [Int: @Sendable (String?) -> Void] = [:]
    private var lastID = 0

    /// Adds `observer`; returns its number.
    mutating func add(_ observer: @escaping @Sendable (String?) -> Void) -> Int {
        lastID += 1
        byID[lastID] = observer
        return lastID
    }

    mutating func remove(_ id: Int) {
        byID[id] = nil
    }

    /// Every observer, in no order.
    var all: [@Sendable (String?) -> Void] {
        Array(byID.values)
    }
}
