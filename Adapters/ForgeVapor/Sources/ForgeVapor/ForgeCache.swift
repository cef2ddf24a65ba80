public import ForgeKVStore
internal import NIOCore
public import Vapor

/// A Vapor `Cache` on a ForgeStorage key-value store that keeps lifetimes: each value is stored as its own JSON under
/// ``keyPrefix`` followed by the cache key, and `expiresIn` becomes the value's lifetime in the store.
///
/// Register it for the application with `Application.Caches.Provider.forge(_:keyPrefix:)`; `req.cache` is then this
/// cache on the request's event loop:
///
/// ```swift
/// app.caches.use(.forge(store))
/// app.get("visits") { req async throws -> String in
///     let visits = (try await req.cache.get("visits", as: Int.self) ?? 0) + 1
///     try await req.cache.set("visits", to: visits, expiresIn: .minutes(5))
///     return "\(visits)"
/// }
/// ```
///
/// A key that holds a value of another type than the one asked for reads as nil, as a missing or expired one does.
/// Setting nil removes the key. Values set without an expiration time never expire. Servers that share the store
/// (one SQLite file, one PostgreSQL database) share the cache.
public struct ForgeCache<Store: AsyncExpiringKVStoring>: Sendable {
    /// The store the values live in.
    public let store: Store
    /// What every cache key is prefixed with in the store, so that the cache's values keep apart from the store's
    /// other keys.
    public let keyPrefix: String
    /// The event loop the cache's futures complete on.
    public let eventLoop: any EventLoop

    /// Creates a cache on `store` whose futures complete on `eventLoop`.
    ///
    /// - Parameters:
    ///   - store: The store the values live in; any store that keeps lifetimes.
    ///   - keyPrefix: What every cache key is prefixed with in the store. Defaults to `vapor.cache.`.
    ///   - eventLoop: The event loop the cache's futures complete on.
    public init(store: Store, keyPrefix: String = "vapor.cache.", on eventLoop: any EventLoop) {
        self.store = store
        self.keyPrefix = keyPrefix
        self.eventLoop = eventLoop
    }

    /// The store key of the cache key `key`: the value's own JSON, whatever its type.
    func storeKey(_ key: String) -> KVKey<StoredJSON> {
        KVKey(keyPrefix + key)
    }
}

extension ForgeCache: Cache {
    /// Reads the value of `key` as a `T`: nil when the key holds nothing, a value that has expired, or a value that
    /// does not decode as a `T`.
    ///
    /// `T` is `Sendable`, as for the `async` form of `get` that Vapor adds to every cache: the value is decoded off
    /// the caller's task. The future fails with the store's `KVStoreError` when the store cannot be read.
    public func get<T: Decodable & Sendable>(_ key: String, as type: T.Type) -> EventLoopFuture<T?> {
        let storeKey = storeKey(key)
        return eventLoop.makeFutureWithTask { [store] in
            // A failure of the store fails the future; a value of another type, or damaged, reads as nil.
            let json: StoredJSON?
            do {
                json = try await store.value(for: storeKey)
            } catch KVStoreError.decodingFailed {
                return nil
            }
            return json.flatMap { try? $0.decoded(as: T.self) }
        }
    }

    /// Stores `value` under `key`, to never expire, replacing what the key held; nil removes the key.
    ///
    /// The future fails with a `KVStoreError`: `encodingFailed` when `value` does not encode as JSON, or the store's
    /// write error.
    public func set<T: Encodable>(_ key: String, to value: T?) -> EventLoopFuture<Void> {
        set(key, to: value, expiresIn: nil)
    }

    /// Stores `value` under `key`, to expire `expirationTime` from now (never, when nil), replacing what the key
    /// held; nil removes the key.
    ///
    /// The future fails with a `KVStoreError`: `encodingFailed` when `value` does not encode as JSON, or the store's
    /// write error.
    public func set<T: Encodable>(
        _ key: String,
        to value: T?,
        expiresIn expirationTime: CacheExpirationTime?
    ) -> EventLoopFuture<Void> {
        let storeKey = storeKey(key)
        guard let value else {
            return eventLoop.makeFutureWithTask { [store] in try await store.remove(storeKey) }
        }
        let json: StoredJSON
        do {
            json = try StoredJSON(encoding: value)
        } catch {
            return eventLoop.makeFailedFuture(
                KVStoreError.encodingFailed(key: storeKey.key, underlying: String(describing: error))
            )
        }
        let lifetime = expirationTime.map { KVLifetime.after(.seconds($0.seconds)) } ?? .forever
        return eventLoop.makeFutureWithTask { [store] in
            try await store.set(storeKey, value: json, lifetime: lifetime)
        }
    }

    /// This cache, with futures that complete on `request`'s event loop.
    public func `for`(_ request: Request) -> ForgeCache {
        ForgeCache(store: store, keyPrefix: keyPrefix, on: request.eventLoop)
    }
}
