public import ForgeFileStore
internal import PostgresNIO

extension PostgresFileStore: TransactionalStore, PostgresTransactionParticipant {
    /// The runner of every ForgePostgres store on ``client``: this store's saves and deletes can share a transaction
    /// with the writes of any store on the same client (a server's upload and its record commit together), and with
    /// no other.
    public var transactionRunner: any TransactionRunner {
        PostgresTransactionRunner.of(client)
    }

    /// A change staged for this store: a save and a delete run what `write(_:at:replacing:)` and `removeFile(at:)`
    /// run in their own transactions, and fail with the errors those throw; a delete where no file is fails the
    /// transaction with `notFound`, as `delete` does.
    func transactionStep(for change: StagedWrite.Change) -> PostgresTransactionStep {
        switch change {
        case .writeFile(let data, let path, let replacing):
            statement(.write(path)) { [self] connection in
                try await write(data, at: StoredFilePath(validating: path), replacing: replacing, on: connection)
            }
        case .removeFile(let path):
            statement(.delete(path)) { [self] connection in
                guard try await removeFile(at: StoredFilePath(validating: path), on: connection) else {
                    throw FileStoreError.notFound(path: path)
                }
            }
        case .fail(let error):
            .failure(error)
        case .storeValue, .removeValue, .storeSecret, .removeSecret:
            .failure(StorageTransactionError.changeOfAnotherKind(store: "PostgresFileStore"))
        }
    }

    /// The step that prepares the tables, then runs `apply`, failing as `operation` does alone.
    private func statement(
        _ operation: FileOperation,
        _ apply: @escaping @Sendable (PostgresConnection) async throws -> Void
    ) -> PostgresTransactionStep {
        .statement(
            .init(
                prepare: { [self] in try await prepare() },
                apply: apply,
                failure: { error in (error as? FileStoreError) ?? operation.error(FailureReason(postgres: error)) }
            )
        )
    }
}
