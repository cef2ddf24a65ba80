public import Foundation

/// The storage an asynchronous key-value store is built on (a database behind a network): named values, each held
/// as JSON, and nothing typed.
///
/// The asynchronous form of ``KVBackend``, with one difference: a read asks for every name a key may be stored
/// under at once (its own and its migrations' older names), so a store behind a network answers in one round
/// trip. Declare ``AsyncKVStoring`` beside it and the typed API comes with it, the same policy ``KVBackend``'s
/// stores get.
public protocol AsyncKVBackend: Sendable {
    /// How this store keeps values with a lifetime (``AsyncExpiringKVStoring``); nil, the default, for a store that
    /// keeps none. A store that keeps them stores each value's ``KVStoredValue/expiresAt`` beside it and gives it back.
    var expiry: KVExpiry? { get }

    /// The names that hold a value that has not expired at `date`, in any order. The default lists
    /// ``storedNames()`` and reads them; implement it when a store can ask its storage for them at once.
    ///
    /// - Throws: ``KVStoreError/listFailed(underlying:)``.
    nonisolated(nonsending) func storedNames(liveAt date: Date) async throws -> [String]

    /// Removes up to `limit` values that have expired at `date` (their expiration date is `date` or earlier), and
    /// returns their names; none when `limit` is 0 or less. A value stored again since it was found expired stays.
    /// The default removes nothing.
    ///
    /// - Throws: ``KVStoreError/removeFailed(key:underlying:)`` or ``KVStoreError/listFailed(underlying:)``.
    nonisolated(nonsending) func removeExpiredValues(at date: Date, limit: Int) async throws -> [String]

    /// The values stored under `names`, by name; a name that holds nothing is absent.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)`` naming the first of `names`.
    nonisolated(nonsending) func storedValues(named names: [String]) async throws -> [String: KVStoredValue]

    /// Stores `value` under `name`, replacing what was stored there, atomically.
    ///
    /// - Throws: ``KVStoreError/writeFailed(key:underlying:)``; the previous value is kept.
    nonisolated(nonsending) func store(_ value: KVStoredValue, named name: String) async throws

    /// Stores `value` under `name` unless `name` holds a value that has not expired at `date`, and returns whether it
    /// did, in one step of the storage: as ``KVBackend/storeIfAbsent(_:named:liveAt:)`` does. The default throws.
    ///
    /// - Throws: ``KVStoreError/writeFailed(key:underlying:)``; what was stored is kept.
    nonisolated(nonsending) func storeIfAbsent(_ value: KVStoredValue, named name: String, liveAt date: Date)
        async throws -> Bool

    /// Removes the values stored under `names`, in the order given (a key's older names come first, the key
    /// last); succeeds for names that hold nothing.
    ///
    /// - Throws: ``KVStoreError/removeFailed(key:underlying:)``.
    nonisolated(nonsending) func removeValues(named names: [String]) async throws

    /// Whether any of `names` holds a value. The default reads them with ``storedValues(named:)``.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)``.
    nonisolated(nonsending) func hasValue(named names: [String]) async throws -> Bool

    /// The names that hold a value, in any order.
    ///
    /// - Throws: ``KVStoreError/listFailed(underlying:)``.
    nonisolated(nonsending) func storedNames() async throws -> [String]

    /// Removes every value this store holds, and nothing it does not.
    ///
    /// - Throws: ``KVStoreError/removeAllFailed(underlying:)``.
    nonisolated(nonsending) func removeAll() async throws
}

extension AsyncKVBackend {
    /// Nil: a store keeps no lifetimes unless it says so.
    public var expiry: KVExpiry? { nil }

    /// The names of ``storedNames()`` whose value, read with ``storedValues(named:)``, has not expired at `date`; throws
    /// what either throws.
    public func storedNames(liveAt date: Date) async throws -> [String] {
        let names = try await storedNames()
        let values = try await storedValues(named: names)
        return names.filter { values[$0].map { !$0.isExpired(at: date) } ?? false }
    }

    /// Removes nothing: a store that keeps no lifetimes holds no expired value.
    public func removeExpiredValues(at date: Date, limit: Int) async throws -> [String] { [] }

    /// Throws ``KVStoreError/writeFailed(key:underlying:)``, storing nothing, as ``KVBackend``'s default does.
    public func storeIfAbsent(_ value: KVStoredValue, named name: String, liveAt date: Date) async throws -> Bool {
        throw KVStoreError.cannotStoreIfAbsent(name)
    }

    /// Whether ``storedValues(named:)`` finds a value under any of `names`.
    public func hasValue(named names: [String]) async throws -> Bool {
        try await !storedValues(named: names).isEmpty
    }
}
