public import ForgeKVStore
public import Hummingbird
internal import ServiceLifecycle

/// Hummingbird's `PersistDriver` on a ForgeStorage key-value store that keeps lifetimes: an app's sessions, caches and
/// counters in the in-memory twin (tests), a `DiskKVStore` folder or a `SQLiteKVStore` file (one server), or a
/// `PostgresKVStore` (servers that share them).
///
/// ```swift
/// let persist = ForgePersistDriver(store: SQLiteKVStore(fileURL: databaseURL, namespace: "persist"))
/// router.add(middleware: SessionMiddleware(storage: persist))
/// var app = Application(router: router)
/// app.addServices(persist)   // reclaims expired values in the background
/// ```
///
/// Each call is one call of the store, under the key Hummingbird gives as the store's key:
/// - `create(key:value:expires:)` is `setIfAbsent`: one step of the storage, so of servers that create one key at once
///   exactly one succeeds and the others get `PersistError.duplicate`; an expired value is absent.
/// - `set(key:value:expires:)` is `set` with `.after(expires)`, or, with `expires` nil, `.unchanged`: the value keeps
///   the lifetime of the one it replaces, as the protocol asks.
/// - `get(key:as:)` is `get`: nil for a key that holds nothing, an expired value, or a value that does not decode as
///   the type asked for.
/// - `getWithTTL(key:as:)` adds `remainingLifetime(of:)`, read before the value, so that a value that expires between
///   the two reads reads as missing.
/// - `remove(key:)` is `remove`.
///
/// A failure of the store is thrown as the store's `KVStoreError`, naming the key; a read that fails is never answered
/// as a key that holds nothing.
///
/// Two limits. A `set` with `expires` nil reads the lifetime, then writes: a value that expired before the read is
/// written without one, as for a new key (Hummingbird's own drivers keep an expired value's date only until they tidy
/// it away), so a session that expires during a request whose route changes it without a new expiry is stored again
/// without an end; give such writes an expiry. And the library's synchronous stores (`DiskKVStore`, `SQLiteKVStore`,
/// the twin) do their I/O on the calling task's thread, the event loop's or the cooperative pool's, which a slow disk
/// or a locked database holds for as long; PostgreSQL's store does not.
public struct ForgePersistDriver<Store: AsyncExpiringKVStoring>: PersistDriver {
    /// The store every call goes to.
    public let store: Store
    /// The time between two passes of the reclaim that ``run()`` runs; nil runs none.
    public let reclaimInterval: Duration?

    /// A driver on `store`.
    ///
    /// - Parameters:
    ///   - store: The store; values expire by its clock (`KVExpiry`).
    ///   - reclaimInterval: The time between the passes of an `ExpiryReaper` that ``run()`` runs while the app does,
    ///     so that the space of sessions that expired and were never read again comes back. The stores' writes
    ///     reclaim too (see `KVExpiry`); nil, zero or less runs no reaper. Defaults to one minute.
    public init(store: Store, reclaimInterval: Duration? = .seconds(60)) {
        self.store = store
        // An interval of zero or less would run passes back to back: it runs none.
        self.reclaimInterval = reclaimInterval.flatMap { $0 > .zero ? $0 : nil }
    }

    /// Stores `value` under `key`, to expire after `expires` (never, when nil), unless `key` holds a value that has
    /// not expired.
    ///
    /// - Throws: `PersistError.duplicate` when `key` holds a value that has not expired; the store's `KVStoreError`.
    public func create<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        let lifetime: KVLifetime = expires.map { .after($0) } ?? .forever
        guard try await store.setIfAbsent(KVKey<Object>(key), value: value, lifetime: lifetime) else {
            throw PersistError.duplicate
        }
    }

    /// Stores `value` under `key`, to expire after `expires`; with `expires` nil, with the lifetime of the value it
    /// replaces (none when there is none).
    ///
    /// - Throws: The store's `KVStoreError`.
    public func set<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        try await store.set(KVKey<Object>(key), value: value, lifetime: expires.map { .after($0) } ?? .unchanged)
    }

    /// The value of `key` as an `Object`: nil when it holds nothing, its value expired, or it does not decode as one.
    ///
    /// - Throws: The store's `KVStoreError` when the store cannot be read.
    public func get<Object: Codable & Sendable>(key: String, as object: Object.Type) async throws -> Object? {
        try await Self.value(of: KVKey<Object>(key), in: store)
    }

    /// The value of `key` as an `Object`, as ``get(key:as:)`` reads it, with the time it has left: nil for a value
    /// without a lifetime.
    ///
    /// - Throws: The store's `KVStoreError` when the store cannot be read.
    public func getWithTTL<Object: Codable & Sendable>(
        key: String,
        as object: Object.Type
    ) async throws -> (object: Object, ttl: Duration?)? {
        let key = KVKey<Object>(key)
        // The lifetime first: a value that expires between the two reads then reads as missing, never as a value
        // without a lifetime.
        let remaining = try await store.remainingLifetime(of: key)
        guard let value = try await Self.value(of: key, in: store) else { return nil }
        return (value, remaining)
    }

    /// The value of `key` in `store`: nil when it holds nothing, its value expired, or does not decode as an `Object`;
    /// a failure of the store is thrown, not read as nil.
    private static func value<Object: Codable & Sendable>(
        of key: KVKey<Object>,
        in store: Store
    ) async throws -> Object? {
        do {
            return try await store.value(for: key)
        } catch KVStoreError.decodingFailed {
            return nil
        }
    }

    /// Removes the value of `key`; succeeds when there is none.
    ///
    /// - Throws: The store's `KVStoreError`.
    public func remove(key: String) async throws {
        try await store.remove(KVKey<StoredJSON>(key))
    }

    /// Reclaims expired values every ``reclaimInterval`` until a graceful shutdown or a cancellation, then returns.
    ///
    /// The driver is a service of the app (`app.addServices(driver)`). A pass that fails is tried again at the next.
    public func run() async throws {
        guard let reclaimInterval else {
            try? await gracefulShutdown()
            return
        }
        let reaper = ExpiryReaper(store: store, interval: reclaimInterval)
        await cancelWhenGracefulShutdown { await reaper.run() }
    }
}
