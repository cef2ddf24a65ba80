internal import ForgeKVStore

/// A store of ForgePostgres whose writes ``PostgresTransactionRunner`` applies: it says how each change staged for it
/// runs, and how long the transaction may wait for a connection.
protocol PostgresTransactionParticipant: TransactionalStore {
    /// How long a call waits for a connection of the client before it fails.
    var connectionWait: Duration { get }

    /// How the runner applies `change`, staged for this store.
    func transactionStep(for change: StagedWrite.Change) -> PostgresTransactionStep
}
