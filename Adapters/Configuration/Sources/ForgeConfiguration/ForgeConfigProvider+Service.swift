public import ServiceLifecycle
internal import Synchronization

extension ForgeConfigProvider: Service {
    /// Loads the store unless a load already did, then follows every key the provider knows, each through the store's
    /// `stream(_:)`, until the task is cancelled or its service group shuts down gracefully.
    ///
    /// Run it in the `ServiceGroup` that runs the store's client (a `PostgresClient` for a `PostgresKVStore`), after
    /// the client, so that it stops first:
    ///
    /// ```swift
    /// let group = ServiceGroup(services: [client, provider, server], logger: logger)
    /// ```
    ///
    /// The keys it follows are those the load found and each key a reader asks for, while it runs and before. After
    /// it returns the snapshot keeps the values it last saw, and readers go on reading them.
    ///
    /// - Throws: The store's error when the first load fails (the group then stops, as for any service that throws);
    ///   nothing after: a stream waits while its store cannot be read and reads again.
    public func run() async throws {
        if !state.withLock({ $0.hasLoaded }) { try await load() }
        await followKnownKeys()
    }
}
