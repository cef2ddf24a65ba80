public import Foundation

/// The storage a key-value store is built on: named values, each held as JSON, and nothing typed.
///
/// Implement the requirements that have no default (read, write and remove a named value, list the names, remove
/// them all), declare ``KVStoring`` beside this protocol, and the typed API comes with them, written once for every store: keys, the JSON codec, migrations, ``KVStoring/value(for:)``, `get`'s nil
/// for a value that does not decode, `contains` and `remove` over a key's older names, and sorted, canonical
/// ``KVStoring/keys()``:
///
/// ```swift
/// final class DictionaryStore: KVStoring, KVBackend {
///     private let values = Mutex<[String: KVStoredValue]>([:])
///
///     func storedValue(named name: String) -> KVStoredValue? { values.withLock { $0[name] } }
///     func store(_ value: KVStoredValue, named name: String) { values.withLock { $0[name] = value } }
///     func removeValue(named name: String) { values.withLock { _ = $0.removeValue(forKey: name) } }
///     func storedNames() -> [String] { values.withLock { Array($0.keys) } }
///     func removeAll() { values.withLock { $0.removeAll() } }
/// }
/// ```
///
/// Names are the strings of ``KVKey``s and of the older names their migrations read. Two names that Swift finds
/// equal (the NFC and NFD spellings of one string) are one name: a store that keeps names as bytes keeps them in
/// one normal form. A requirement that fails throws a ``KVStoreError`` naming the key, and leaves what was stored before as
/// it was; the typed API passes on what a requirement throws as it is.
public protocol KVBackend: Sendable {
    /// How this store keeps values with a lifetime (``ExpiringKVStoring``); nil, the default, for a store that keeps
    /// none. A store that keeps them stores each value's ``KVStoredValue/expiresAt`` beside it and gives it back.
    var expiry: KVExpiry? { get }

    /// The names that hold a value that has not expired at `date`, in any order. The default lists
    /// ``storedNames()`` and reads each; implement it when a store can ask its storage for them at once.
    ///
    /// - Throws: ``KVStoreError/listFailed(underlying:)``.
    func storedNames(liveAt date: Date) throws -> [String]

    /// Whether `name` holds a value that has not expired at `date`. The default reads it with
    /// ``storedValue(named:)``, and asks ``hasValue(named:)`` when the read fails.
    func hasValue(named name: String, liveAt date: Date) -> Bool

    /// Removes up to `limit` values that have expired at `date` (their expiration date is `date` or earlier), and
    /// returns their names; none when `limit` is 0 or less. A value stored again since it was found expired stays.
    /// The default removes nothing: a store that keeps no lifetimes holds no expired value.
    ///
    /// - Throws: ``KVStoreError/removeFailed(key:underlying:)`` or ``KVStoreError/listFailed(underlying:)``.
    func removeExpiredValues(at date: Date, limit: Int) throws -> [String]

    /// The value stored under `name`, or nil when nothing is.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)`` when the storage cannot be read.
    func storedValue(named name: String) throws -> KVStoredValue?

    /// Stores `value` under `name`, replacing what was stored there, atomically: a reader finds the old value or
    /// the new one, whole.
    ///
    /// - Throws: ``KVStoreError/writeFailed(key:underlying:)``; the previous value is kept.
    func store(_ value: KVStoredValue, named name: String) throws

    /// Stores `value` under `name` unless `name` holds a value that has not expired at `date`, and returns whether it
    /// did, atomically: of writers that call it at once for one name, in any instance or process, one stores and the
    /// others find its value. A value that has expired is replaced; one that has not is kept, whether or not it
    /// decodes.
    ///
    /// ``ExpiringKVStoring/setIfAbsent(_:value:lifetime:)`` asks it. The default throws: a store answers it only as
    /// one step of its storage (a transaction, an exclusive create), never as a read followed by a write.
    ///
    /// - Throws: ``KVStoreError/writeFailed(key:underlying:)``; what was stored is kept.
    func storeIfAbsent(_ value: KVStoredValue, named name: String, liveAt date: Date) throws -> Bool

    /// Removes the value stored under `name`; succeeds when there is none.
    ///
    /// - Throws: ``KVStoreError/removeFailed(key:underlying:)``.
    func removeValue(named name: String) throws

    /// Whether a value is stored under `name`. The default reads it with ``storedValue(named:)``; implement it when
    /// a store can tell without reading (a `stat`).
    func hasValue(named name: String) -> Bool

    /// The names that hold a value, in any order.
    ///
    /// - Throws: ``KVStoreError/listFailed(underlying:)``.
    func storedNames() throws -> [String]

    /// Removes every value this store holds, and nothing it does not (another namespace's, another suite's).
    ///
    /// - Throws: ``KVStoreError/removeAllFailed(underlying:)``.
    func removeAll() throws
}

extension KVBackend {
    /// Nil: a store keeps no lifetimes unless it says so.
    public var expiry: KVExpiry? { nil }

    /// The names of ``storedNames()`` whose value, read with ``storedValue(named:)``, has not expired at `date`; a
    /// name whose value cannot be read is listed.
    public func storedNames(liveAt date: Date) throws -> [String] {
        try storedNames()
            .filter { name in
                switch Result(catching: { try storedValue(named: name) }) {
                case .success(let value): value.map { !$0.isExpired(at: date) } ?? false
                case .failure: true
                }
            }
    }

    /// Removes nothing: a store that keeps no lifetimes holds no expired value.
    public func removeExpiredValues(at date: Date, limit: Int) throws -> [String] { [] }

    /// Throws ``KVStoreError/writeFailed(key:underlying:)``, storing nothing: a store that does not implement it
    /// cannot store a value only when none is there in one step.
    public func storeIfAbsent(_ value: KVStoredValue, named name: String, liveAt date: Date) throws -> Bool {
        throw KVStoreError.cannotStoreIfAbsent(name)
    }

    /// Whether ``storedValue(named:)`` finds a value under `name` that has not expired at `date`; when the read
    /// fails, what ``hasValue(named:)`` says.
    public func hasValue(named name: String, liveAt date: Date) -> Bool {
        switch Result(catching: { try storedValue(named: name) }) {
        case .success(let value): value.map { !$0.isExpired(at: date) } ?? false
        case .failure: hasValue(named: name)
        }
    }

    /// Whether ``storedValue(named:)`` finds a value under `name`; false when it throws.
    public func hasValue(named name: String) -> Bool {
        (try? storedValue(named: name)) != nil
    }
}

extension KVStoreError {
    /// The error of ``KVBackend/storeIfAbsent(_:named:liveAt:)`` on a store that does not implement it.
    static func cannotStoreIfAbsent(_ name: String) -> KVStoreError {
        .writeFailed(key: name, underlying: .other("the store cannot store a value only when its key holds none"))
    }
}
