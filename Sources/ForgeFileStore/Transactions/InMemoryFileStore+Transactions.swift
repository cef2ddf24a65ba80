internal import ForgeCore

extension InMemoryFileStore: TransactionalStore, InMemoryTransactionParticipant {
    /// The runner every in-memory store shares: this store's writes can join a transaction with those of any
    /// in-memory store.
    public var transactionRunner: any TransactionRunner {
        InMemoryTransactionRunner.shared
    }

    /// Applies a transaction's changes to this store while holding its lock, each checked by the test's faults and by
    /// the rules of folders as the same write alone is; puts the files back as they were when one fails, and tells the
    /// streams of changes only of a transaction that is applied.
    package func applyingTransaction(
        _ body: ((StagedWrite.Change) throws -> Void) throws -> Void
    ) throws -> () -> Void {
        try state.withLockUndoingOnFailure { state in
            var changes: [FileChange] = []
            try body { change in
                switch change {
                case .writeFile(let data, let path, let replacing):
                    let file = try StoredFilePath(validating: path)
                    _ = try faults.begin(.write, file.string)
                    changes.append(try state.write(data, at: file, replacing: replacing))
                case .removeFile(let path):
                    let file = try StoredFilePath(validating: path)
                    _ = try faults.begin(.delete, file.string)
                    guard let removal = try state.removeFile(at: file) else {
                        throw FileStoreError.notFound(path: path)
                    }
                    changes.append(removal)
                case .fail(let error):
                    throw error
                case .storeValue, .removeValue, .storeSecret, .removeSecret:
                    throw StorageTransactionError.changeOfAnotherKind(store: "InMemoryFileStore")
                }
            }
            // Under the lock, as a single write tells them: a stream's buffer takes them in order, and no observer
            // code runs here.
            for change in changes { state.tell(change) }
        }
        return {}
    }
}
