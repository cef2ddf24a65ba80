public import ForgeCrypt
internal import PostgresNIO

extension PostgresCrypt: TransactionalStore, PostgresTransactionParticipant {
    /// The runner of every ForgePostgres store on ``client``: this store's secrets can share a transaction with the
    /// writes of any store on the same client (a sign-in's token and the account it belongs to), and with no other.
    public var transactionRunner: any TransactionRunner {
        PostgresTransactionRunner.of(client)
    }

    /// A change staged for this store: a secret is sealed and stored, or removed, by what `store(_:named:)` and
    /// `removeSecret(named:)` run alone (the header checked in the same statements), and fails with the errors those
    /// throw.
    func transactionStep(for change: StagedWrite.Change) -> PostgresTransactionStep {
        switch change {
        case .storeSecret(let secret, let name):
            statement(.write(name)) { [self] sealer, connection in
                let item = sealer.item(for: name)
                try await store(sealer.seal(secret, as: item), as: item, named: name, by: sealer, on: connection)
            }
        case .removeSecret(let name):
            statement(.remove(name)) { [self] sealer, connection in
                try await removeRows(.remove(name), item: sealer.itemName(for: name), sealer: sealer, on: connection)
            }
        case .fail(let error):
            .failure(error)
        case .storeValue, .removeValue, .writeFile, .removeFile:
            .failure(StorageTransactionError.changeOfAnotherKind(store: "PostgresCrypt"))
        }
    }

    /// The step that prepares the store (its table, and the sealer of its namespace's header), then runs `apply` with
    /// the sealer, failing as `operation` does alone.
    private func statement(
        _ operation: StoreOperation,
        _ apply: @escaping @Sendable (SecretSealer, PostgresConnection) async throws -> Void
    ) -> PostgresTransactionStep {
        .statement(
            .init(
                prepare: { [self] in _ = try await preparedSealer(for: operation) },
                apply: { [self] connection in
                    try await apply(preparedSealer(for: operation), connection)
                },
                failure: { error in
                    (error as? CryptStoreError) ?? operation.cryptStoreError(FailureReason(postgres: error))
                }
            )
        )
    }
}
