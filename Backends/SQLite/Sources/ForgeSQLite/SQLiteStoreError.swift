public import ForgeKVStore

/// An error of ForgeSQLite that is not a store operation's: the database file could not be opened, checked or closed.
///
/// A store operation reports the same failure as its protocol's error (`KVStoreError`), with the same reason, so
/// ``SQLiteDatabase/prepare()`` is only needed to find a problem early.
public enum SQLiteStoreError: Error, Sendable, Hashable {
    /// The database at `path` could not be opened, or is not one the stores can use; `underlying` says why (not a
    /// SQLite database, a table of the stores in an unknown shape, a denied permission, a database another connection
    /// kept locked: `.busy`).
    case openFailed(path: String, underlying: FailureReason)
    /// The database at `path` was closed (``SQLiteDatabase/close()``): it opens no more.
    case closed(path: String)
    /// A connection to the database at `path` could not be closed; `underlying` says why.
    case closeFailed(path: String, underlying: FailureReason)

    /// Why the database could not be opened or closed, or that it was closed.
    public var reason: FailureReason {
        switch self {
        case .openFailed(_, let reason), .closeFailed(_, let reason): reason
        case .closed(let path): ClosedDatabase(path: path).reason
        }
    }
}

extension SQLiteStoreError: CustomStringConvertible {
    /// A readable sentence naming the path and the reason.
    public var description: String {
        switch self {
        case .openFailed(let path, let reason):
            "Could not open the SQLite database '\(path)': \(reason)"
        case .closed(let path):
            "The SQLite database '\(path)' was closed (SQLiteDatabase.close())"
        case .closeFailed(let path, let reason):
            "Could not close the SQLite database '\(path)': \(reason)"
        }
    }
}
