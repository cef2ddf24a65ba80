public import ForgeKVStore

/// An error of ForgePostgres that is not a store operation's: preparing a store's table failed.
///
/// A store operation reports a failure as its protocol's error (``ForgeKVStore/KVStoreError``,
/// ``ForgeFileStore/FileStoreError``), with the same reason as here.
public enum PostgresStoreError: Error, Sendable, Hashable {
    /// The table `table` could not be created or checked; `underlying` says why (the server's message, a
    /// connection failure, a table name that is not a plain identifier).
    case prepareFailed(table: String, underlying: FailureReason)

    /// Why the preparation failed.
    public var reason: FailureReason {
        switch self {
        case .prepareFailed(_, let reason): reason
        }
    }
}

extension PostgresStoreError: CustomStringConvertible {
    /// A readable sentence naming the table and the reason.
    public var description: String {
        switch self {
        case .prepareFailed(let table, let reason):
            "Could not prepare the PostgreSQL table '\(table)': \(reason)"
        }
    }
}
