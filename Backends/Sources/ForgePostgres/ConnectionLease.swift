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
    /// - Throws: `ConnectionWaitExpired` when no connection was leased in time (the lease is then cancelled, and
    ///   `body` never runs), or what the lease or `body` throws.
    func withConnection<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let leased = LeaseFlag()
        return try await withThrowingTaskGroup(of: LeaseOutcome<Result>.self) { [client, wait] group in
            group.addTask {
                let result = try await client.withConnection { connection in
                    // A call the wait gave up on has been cancelled: it must not start its statement.
                    guard leased.markLeased() else { throw CancellationError() }
                    return try await body(connection)
                }
                return .finished(result)
            }
            group.addTask {
                try await Task.sleep(for: wait)
                return .waitExpired
            }
            while let outcome = try await group.next() {
                switch outcome {
                case .finished(let result):
                    group.cancelAll()
                    return result
                case .waitExpired:
                    if leased.giveUpUnlessLeased() {
                        group.cancelAll()
                        throw ConnectionWaitExpired(wait: wait)
                    }
                }
            }
            throw CancellationError()
        }
    }
}

/// What came first of a call's statement and its connection wait.
enum LeaseOutcome<Result: Sendable>: Sendable {
    /// The statement ran and returned `Result`.
    case finished(Result)
    /// The wait for a connection ran out.
    case waitExpired
}
