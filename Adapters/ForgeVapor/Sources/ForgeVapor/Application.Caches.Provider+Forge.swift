public import ForgeKVStore
public import Vapor

extension Application.Caches.Provider {
    /// The application's cache on `store`: a ``ForgeCache``, whose values live as long as the store keeps them.
    ///
    /// ```swift
    /// app.caches.use(.forge(SQLiteKVStore(fileURL: cacheFile, namespace: "cache")))
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store the values live in; any store that keeps lifetimes.
    ///   - keyPrefix: What every cache key is prefixed with in the store. Defaults to `vapor.cache.`.
    /// - Returns: The provider to give `app.caches.use(_:)`.
    public static func forge<Store: AsyncExpiringKVStoring>(
        _ store: Store,
        keyPrefix: String = "vapor.cache."
    ) -> Self {
        .init { application in
            application.caches.use { application in
                ForgeCache(store: store, keyPrefix: keyPrefix, on: application.eventLoopGroup.next())
            }
        }
    }
}
