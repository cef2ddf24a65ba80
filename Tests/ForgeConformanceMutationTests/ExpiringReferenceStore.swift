import ForgeKVStore
import Foundation
import Synchronization

/// A correct store that keeps lifetimes as a database does, with an index of expiry dates that reclaiming reads
/// (soonest first) rather than a scan of every value; and, given an ``ExpiryMutant``, the same store broken in that one
/// way.
final class ExpiringReferenceStore: KVStoring, ExpiringKVStoring, KVBackend {
    let expiry: KVExpiry?
    let mutant: ExpiryMutant?
    /// The values by name, and the names of the values with a lifetime by their expiry date.
    private let state = Mutex<(values: [String: KVStoredValue], index: [(date: Date, name: String)])>(([:], []))

    init(expiry: KVExpiry, mutant: ExpiryMutant? = nil) {
        self.expiry = expiry
        self.mutant = mutant
    }

    func storedValue(named name: String) -> KVStoredValue? {
        state.withLock { $0.values[name] }
    }

    func store(_ value: KVStoredValue, named name: String) {
        state.withLock { Self.put(value, named: name, in: &$0) }
    }

    func storeIfAbsent(_ value: KVStoredValue, named name: String, liveAt date: Date) -> Bool {
        state.withLock { state in
            let keepsExpired = mutant == .storeIfAbsentKeepsAnExpiredValue
            if let stored = state.values[name], keepsExpired || !stored.isExpired(at: date) { return false }
            Self.put(value, named: name, in: &state)
            return true
        }
    }

    /// Puts `value` under `name` in `state`, and its expiry date in the index.
    private static func put(
        _ value: KVStoredValue,
        named name: String,
        in state: inout (values: [String: KVStoredValue], index: [(date: Date, name: String)])
    ) {
        state.values[name] = value
        state.index.removeAll { $0.name == name }
        if let date = value.expiresAt {
            state.index.append((date, name))
            state.index.sort { $0.date < $1.date }
        }
    }

    func removeValue(named name: String) {
        state.withLock { state in
            state.values[name] = nil
            state.index.removeAll { $0.name == name }
        }
    }

    func storedNames() -> [String] {
        state.withLock { Array($0.values.keys) }
    }

    func storedNames(liveAt date: Date) -> [String] {
        state.withLock { state in state.values.compactMap { $0.value.isExpired(at: date) ? nil : $0.key } }
    }

    func hasValue(named name: String, liveAt date: Date) -> Bool {
        state.withLock { $0.values[name].map { !$0.isExpired(at: date) } ?? false }
    }

    /// Removes the values the index says expired at `date`, soonest first, up to `limit` of them; returns what the
    /// index named, as a store that trusts its index does.
    func removeExpiredValues(at date: Date, limit: Int) -> [String] {
        state.withLock { state in
            let due = state.index.prefix { $0.date <= date }.prefix(max(0, limit)).map(\.name)
            state.index.removeFirst(due.count)
            for name in due { state.values[name] = nil }
            return due
        }
    }

    func removeAll() {
        state.withLock { state in
            state.values.removeAll()
            if mutant != .removeAllKeepsTheExpiryIndex { state.index.removeAll() }
        }
    }
}
