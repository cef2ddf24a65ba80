internal import PostgresNIO

/// A client's connection, leased for one call with a bounded wait: the way every store of the module reaches its
/// server.
///
/// A `PostgresClient` waits for a connection as long as it takes (the server is down, the pool is busy); a store call
/// waits at most ``wait`` and then fails with `ConnectionWaitExpired`, so a caller gets a typed error rather than a
/// hang.
struct ConnectionLease: Sendable {
    /// The client whose connections are leased; the caller runs it.
    let client: PostgresClient
    /// How long to wait for a connection before giving up.
    let wait: Duration

    /// Runs `body` on a connection leased from the client, waiting at most ``wait`` for it.
    ///
    /// - Throws: `ConnectionWaitExpired` when no connection was leased in time (the lease is then cancelled, and
    ///   `body` never runs), or what the lease or `body` throws.
    func run<Result: Sendable>(
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
