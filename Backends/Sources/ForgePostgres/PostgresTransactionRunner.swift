internal import ForgeKVStore
internal import NIOConcurrencyHelpers
internal import PostgresNIO

/// What applies a transaction of ForgePostgres stores: one runner per `PostgresClient`, which every store on that
/// client returns, so that stores of any table and namespace on one client share transactions, and stores on
/// different clients never do.
///
/// A store finds its client's runner through ``of(_:)``: a registry keyed by the client's identity holds each runner
/// weakly, and a runner holds its client, so an entry's key names its client for as long as the runner lives; the
/// runner goes with the last store that holds it.
///
/// ``commitAsynchronously(_:)`` runs the writes in their order in one database transaction (`BEGIN` … `COMMIT`) on
/// one connection of the client, with the statements the stores run for the same writes alone. The first write that
/// fails rolls it back, and its error is thrown as its store throws it for that write alone.
final class PostgresTransactionRunner: TransactionRunner {
    /// The client whose connection each transaction runs on.
    let client: PostgresClient

    /// The runner of each client that has one.
    private static let runners = ClientRegistry<PostgresTransactionRunner>()

    private init(client: PostgresClient) {
        self.client = client
    }

    /// The runner of `client`: the one that a store on it holds already, or a new one.
    static func of(_ client: PostgresClient) -> PostgresTransactionRunner {
        runners.value(of: client) { PostgresTransactionRunner(client: client) }
    }

    /// Applies nothing: a PostgreSQL transaction is applied only while the caller awaits the server.
    ///
    /// - Throws: ``StorageTransactionError/commitNeedsAwait(_:)``, having applied nothing.
    func commit(_ writes: [StagedWrite]) throws {
        throw StorageTransactionError.commitNeedsAwait(String(describing: Self.self))
    }

    /// Applies `writes` in order in one database transaction on one connection, all or none.
    ///
    /// Each store's table is prepared first, as its calls prepare it. A change that fails without the server (a
    /// `.fail`, a preparation that failed) ends the walk there: the writes before it run, so that one of them that
    /// fails first is the one reported, then the transaction is rolled back. The connection is awaited for as long
    /// as the first store's `connectionWait`. Once the transaction has started it runs to its end, whatever the
    /// caller's cancellation, as a single write does.
    ///
    /// - Throws: The error of the first write that failed, as its store throws it for that write alone (a failure to
    ///   begin is the first write's, a failure to commit the last one's); the error of a `.fail`;
    ///   ``StorageTransactionError``. Nothing is applied then.
    func commitAsynchronously(_ writes: [StagedWrite]) async throws {
        var participants: [any PostgresTransactionParticipant] = []
        for write in writes {
            guard let participant = write.store as? any PostgresTransactionParticipant,
                participant.transactionRunner === self
            else {
                throw StorageTransactionError.storesOfDifferentDatabases(
                    String(describing: Self.self),
                    String(describing: type(of: write.store))
                )
            }
            participants.append(participant)
        }
        guard let connectionWait = participants.first?.connectionWait else { return }

        // The statements to run, up to the first change that fails without the server.
        var statements: [PostgresTransactionStep.Statement] = []
        var failure: (any Error)?
        for (write, participant) in zip(writes, participants) where failure == nil {
            switch participant.transactionStep(for: write.change) {
            case .failure(let error):
                failure = error
            case .statement(let statement):
                do {
                    try await statement.prepare()
                    statements.append(statement)
                } catch {
                    failure = statement.failure(error)
                }
            }
        }
        if !statements.isEmpty {
            try await run(statements, commit: failure == nil, connectionWait: connectionWait)
        }
        if let failure { throw failure }
    }

    /// Runs `statements` in order in one transaction on a connection leased within `connectionWait`, then commits it,
    /// or rolls it back when `commit` is false.
    ///
    /// - Throws: The error of the statement that failed (or of the first, when no transaction began; or of the last,
    ///   when it did not commit), as its store throws it; the transaction is rolled back.
    private func run(
        _ statements: [PostgresTransactionStep.Statement],
        commit: Bool,
        connectionWait: Duration
    ) async throws {
        // The statement running, so that a failure is reported as its store reports it; the raw error goes through
        // the lease, which closes a connection the server ended.
        let reached = NIOLockedValueBox(0)
        let lease = ConnectionLease(client: client, wait: connectionWait)
        do {
            try await lease.withConnection { connection in
                try await Self.apply(statements, commit: commit, on: connection, reached: reached)
            }
        } catch {
            throw statements[reached.withLockedValue { $0 }].failure(error)
        }
    }

    /// Begins a transaction on `connection`, runs `statements` in it, marking in `reached` the one running, and
    /// commits it, or rolls it back when `commit` is false or a statement fails.
    private static func apply(
        _ statements: [PostgresTransactionStep.Statement],
        commit: Bool,
        on connection: PostgresConnection,
        reached: NIOLockedValueBox<Int>
    ) async throws {
        try await ConnectionLease.transaction(on: connection, committing: commit) { connection in
            for (index, statement) in statements.enumerated() {
                reached.withLockedValue { $0 = index }
                try await statement.apply(connection)
            }
        }
    }
}
