internal import Logging
internal import PostgresNIO

/// How a store leases a connection of its client: waiting at most its connection wait, so that a call fails with a
/// typed error when the server is down or the pool is busy, rather than hang.
struct ConnectionLease: Sendable {
    /// The logger of the stores' statements: none, since the client logs its connections.
    static let logger = Logger(label: "ForgePostgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// The client whose connections are leased; the caller runs it.
    let client: PostgresClient
    /// How long a call waits for a connection before it fails.
    let wait: Duration

    /// Runs `body` on a connection leased from the client, waiting at most ``wait`` for it.
    ///
    /// A call cancelled before its statement starts ends at once. Once the statement has started it runs to its end,
    /// untouched by the caller's cancellation, and the call returns its outcome, so that a write that committed is
    /// never reported as failed (postgres-nio stops reading a cancelled task's rows, not the statement).
    ///
    /// - Throws: `ConnectionWaitExpired` when no connection was leased in time (the lease is then cancelled, and
    ///   `body` never runs), `CancellationError` when the caller was cancelled before `body` started, or what the
    ///   lease or `body` throws.
    func withConnection<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let leased = LeaseFlag()
        // Not a child of the caller: the caller's cancellation must not reach a statement that has started. Before the
        // lease, the wait below cancels it.
        let call = Task { [client] in
            try await client.withConnection { connection in
                // A call the wait gave up on has been cancelled: it must not start its statement.
                guard leased.markLeased() else { throw CancellationError() }
                do {
                    return try await body(connection)
                } catch let error as PSQLError where Self.endsConnection(error) {
                    // Closed before the pool takes it back, so that the next call is never handed a connection the
                    // server has already ended (it would fail at once).
                    try? await connection.close()
                    throw error
                }
            }
        }
        return try await withThrowingTaskGroup(of: LeaseOutcome<Result>.self) { [wait] group in
            group.addTask { .finished(try await call.value) }
            group.addTask {
                do {
                    try await Task.sleep(for: wait)
                    return .waitExpired
                } catch {
                    return .cancelled
                }
            }
            while let outcome = try await group.next() {
                switch outcome {
                case .finished(let result):
                    group.cancelAll()
                    return result
                case .waitExpired, .cancelled:
                    // Before the lease the call gives up, and its lease is cancelled; after, it waits for the statement.
                    guard leased.giveUpUnlessLeased() else { continue }
                    call.cancel()
                    if case .waitExpired = outcome { throw ConnectionWaitExpired(wait: wait) }
                    throw CancellationError()
                }
            }
            throw CancellationError()
        }
    }

    /// Whether `error` means the connection is gone: the server ended it (an administrator's
    /// `pg_terminate_backend`, a shutdown: SQLSTATE class 57P; a connection exception: class 08), or it closed or
    /// failed under the client.
    static func endsConnection(_ error: PSQLError) -> Bool {
        switch error.code {
        case .serverClosedConnection, .connectionError, .uncleanShutdown:
            return true
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("57P") || state.hasPrefix("08")
        default:
            return false
        }
    }
}

/// What came first of a call's statement and its connection wait.
enum LeaseOutcome<Result: Sendable>: Sendable {
    /// The statement ran and returned `Result`.
    case finished(Result)
    /// The wait for a connection ran out.
    case waitExpired
    /// The caller was cancelled during the wait.
    case cancelled
}
