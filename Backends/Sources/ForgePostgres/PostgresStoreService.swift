public import PostgresNIO
public import ServiceLifecycle

/// A `Service` that runs the background work of every ForgePostgres store on one `PostgresClient`, and ends it
/// cleanly on a graceful shutdown: add it to your `ServiceGroup` beside the client.
///
/// The background work is the connection each ``PostgresKVStore`` listens on while its streams run (stores of any
/// table and namespace on the client, made before the service runs or after). ``PostgresFileStore`` and
/// ``PostgresCrypt`` have none: each of their calls is over when it returns.
///
/// ```swift
/// let client = PostgresClient(configuration: configuration)
/// let group = ServiceGroup(
///     services: [client, server, PostgresStoreService(client: client)],
///     gracefulShutdownSignals: [.sigterm],
///     logger: logger
/// )
/// try await group.run()
/// ```
///
/// While it runs, the listening connections are its child tasks. On a graceful shutdown it stops listening, has every
/// stream read its key once more and end (a write committed before the shutdown is in the last value each stream
/// yields), and returns once the streams ended and their connections went back to the client's pool; a stream made
/// after that ends at once, with no value, while the stores' other calls go on working. Cancelled (the group's
/// cancellation, or a graceful shutdown that ran out of time), it ends every stream at once, cancelling the reads
/// under way. A last read that cannot reach the server ends its stream without that value rather than wait for it.
///
/// A `ServiceGroup` shuts its services down in the reverse of their order, each once the one after it returned. List
/// the service after your server, so that its streams end first and the server's responses that iterate them finish
/// (a server waits for its responses before it stops), and after the client, which must still run for the last reads.
/// Run one service per client; run again after it ended, it lets streams start again.
///
/// Without the service, the stores work as they always did: each store listens in a task of its own while its
/// streams run, and a stream ends when its consumer stops iterating it.
public struct PostgresStoreService: Service {
    /// The client whose stores' background work the service runs; the service never runs or shuts down the client.
    public let client: PostgresClient
    /// The background work of the stores on ``client``, shared with them.
    private let work: BackgroundWork

    /// Creates the service of the stores on `client`.
    ///
    /// - Parameter client: The client of the stores, which the same group runs.
    public init(client: PostgresClient) {
        self.client = client
        self.work = BackgroundWork.of(client)
    }

    /// Runs the stores' listening connections until a graceful shutdown or a cancellation, then ends their streams
    /// and returns once they ended.
    ///
    /// - Throws: ``PostgresStoreError/serviceAlreadyRunning`` when another service of the same client is running, or
    ///   still ending.
    public func run() async throws(PostgresStoreError) {
        try await work.run()
    }
}
