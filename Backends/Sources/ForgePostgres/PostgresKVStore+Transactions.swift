public import ForgeKVStore
internal import PostgresNIO

extension PostgresKVStore: TransactionalStore, PostgresTransactionParticipant {
    /// The runner of every ForgePostgres store on ``client``: this store's writes can share a transaction with those of
    /// any store on the same client, whatever its table or namespace, and with no other.
    public var transactionRunner: any TransactionRunner {
        runner
    }

    /// A change staged for this store: a write and a removal run the statements of `store(_:named:)` and
    /// `removeValues(named:)`, and fail with the errors those throw.
    ///
    /// A write stores the lifetime the transaction staged with it (`set(_:value:expiresAfter:in:)`), or none.
    func transactionStep(for change: StagedWrite.Change) -> PostgresTransactionStep {
        switch change {
        case .storeValue(let json, let name, let expiresAt):
            statement(.write(name)) { [self] connection in
                try await store(json: json, expiresAt: expiresAt, named: name, on: connection)
            }
        case .removeValue(let name):
            statement(.remove(name)) { [self] connection in try await removeValues(named: [name], on: connection) }
        case .fail(let error):
            .failure(error)
        case .writeFile, .removeFile, .storeSecret, .removeSecret:
            .failure(StorageTransactionError.changeOfAnotherKind(store: "PostgresKVStore"))
        }
    }

    /// The step that prepares the table, then runs `apply`, failing as `operation` does.
    private func statement(
        _ operation: StoreOperation,
        _ apply: @escaping @Sendable (PostgresConnection) async throws -> Void
    ) -> PostgresTransactionStep {
        .statement(.init(prepare: { [self] in try await prepare() }, apply: apply, failure: operation.failure(from:)))
    }
}
