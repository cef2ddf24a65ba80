internal import ForgeKVStore
internal import PostgresNIO

/// No connection of the client was free or could be opened within the store's `connectionWait`.
struct ConnectionWaitExpired: Error {
    /// How long the store waited.
    let wait: Duration
}

extension FailureReason {
    /// The reason a store reports for `error`, thrown by PostgresNIO or by the store's own connection handling.
    ///
    /// A server's error keeps its message and SQLSTATE, never its detail (which may quote stored data); a
    /// connection failure says what failed.
    init(postgres error: any Error) {
        switch error {
        case let expired as ConnectionWaitExpired:
            // The client's pool keeps trying to connect and does not say why it fails: name the usual causes.
            self = .other(
                "no connection to the PostgreSQL server within \(expired.wait): the server is down or unreachable, "
                    + "refuses the user, password or database, or every connection of the pool is in use"
            )
        case let error as PSQLError where error.code == .server:
            let message = error.serverInfo?[.message] ?? "an error"
            let state = error.serverInfo?[.sqlState] ?? "?"
            self = .other("the PostgreSQL server answered: \(message) (SQLSTATE \(state))")
        case let error as PSQLError:
            let underlying = error.underlying.map { ": \(String(describing: $0))" } ?? ""
            self = .other("PostgreSQL connection failure (\(error.code))\(underlying)")
        case let error as PostgresStoreError:
            self = error.reason
        case let error as PostgresTransactionError:
            // The error of the step that failed: the transaction's statements, its BEGIN, or its COMMIT.
            if let cause = error.closureError ?? error.beginError ?? error.commitError {
                self.init(postgres: cause)
            } else {
                self = .other("a PostgreSQL transaction failed")
            }
        case is CancellationError:
            self = .other("the operation was cancelled")
        default:
            self = .other("PostgreSQL connection failure: \(String(describing: error))")
        }
    }
}
