public import ForgeKVStore
public import Vapor

extension Application.Sessions.Provider {
    /// Sessions on `store`: a ``ForgeSessionDriver``, whose sessions expire `lifetime` after their last request.
    ///
    /// ```swift
    /// app.sessions.use(.forge(store, lifetime: .seconds(24 * 60 * 60)))
    /// app.middleware.use(app.sessions.middleware)
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store the sessions live in; any store that keeps lifetimes.
    ///   - lifetime: How long a session lives after its last request. Defaults to one week, as Vapor's default
    ///     session cookie.
    ///   - keyPrefix: What every session identifier is prefixed with in the store. Defaults to `vapor.session.`.
    /// - Returns: The provider to give `app.sessions.use(_:)`.
    public static func forge<Store: AsyncExpiringKVStoring>(
        _ store: Store,
        lifetime: Duration = ForgeSessionDriver<Store>.defaultLifetime,
        keyPrefix: String = "vapor.session."
    ) -> Self {
        .init { application in
            application.sessions.use { _ in
                ForgeSessionDriver(store: store, lifetime: lifetime, keyPrefix: keyPrefix)
            }
        }
    }
}
