public import ForgeKVStore

/// An error of ForgePostgres that is not a store operation's: preparing a store's table failed, a server URL could
/// not be read, or a second service was run for one client's stores.
///
/// A store operation reports a failure as its protocol's error (`KVStoreError`, `FileStoreError`,
/// `CryptStoreError`), with the same reason as here.
public enum PostgresStoreError: Error, Sendable, Hashable {
    /// The table `table` could not be created or checked; `underlying` says why (the server's message, a
    /// connection failure, a table name that is not a plain identifier).
    case prepareFailed(table: String, underlying: FailureReason)

    /// A server URL could not be read; `reason` says why without quoting it, since a URL may hold a password.
    case invalidServerURL(reason: String)

    /// A ``PostgresStoreService`` of the same `PostgresClient` is running already (or still ending its work): one
    /// service runs the background work of all the stores on a client.
    case serviceAlreadyRunning

    /// Why the preparation failed, why the URL could not be read, or that a service runs already.
    public var reason: FailureReason {
        switch self {
        case .prepareFailed(_, let reason): reason
        case .invalidServerURL(let reason): .other(reason)
        case .serviceAlreadyRunning: .other("a PostgresStoreService of this client is running already")
        }
    }
}

extension PostgresStoreError: CustomStringConvertible {
    /// A readable sentence naming the table and the reason.
    public var description: String {
        switch self {
        case .prepareFailed(let table, let reason):
            "Could not prepare the PostgreSQL table '\(table)': \(reason)"
        case .invalidServerURL(let reason):
            "The PostgreSQL server URL cannot be used: \(reason)"
        case .serviceAlreadyRunning:
            "A PostgresStoreService of this PostgresClient is running already: one service runs all its stores' work"
        }
    }
}
