public import ForgeKVStore

/// An error of ForgeSQLite that is not a store operation's: the database file could not be opened or checked.
///
/// A store operation reports the same failure as its protocol's error (`KVStoreError`), with the same reason, so
/// ``SQLiteDatabase/prepare()`` is only needed to find a problem early.
public enum SQLiteStoreError: Error, Sendable, Hashable {
    /// The database at `path` could not be opened, or is not one the stores can use; `underlying` says why (not a
    /// SQLite database, a table of the stores in an unknown shape, a denied permission, a database another connection
    /// kept locked: `.busy`).
    case openFailed(path: String, underlying: FailureReason)

    /// Why the database could not be opened.
    public var reason: FailureReason {
        switch self {
        case .openFailed(_, let reason): reason
        }
    }
}

extension SQLiteStoreError: CustomStringConvertible {
    /// A readable sentence naming the path and the reason.
    public var description: String {
        switch self {
        case .openFailed(let path, let reason):
            "Could not open the SQLite database '\(path)': \(reason)"
        }
    }
}
