internal import ForgeCore

extension InMemoryCrypt: TransactionalStore, InMemoryTransactionParticipant {
    /// The runner every in-memory store shares: this store's writes can join a transaction with those of any
    /// in-memory store.
    public var transactionRunner: any TransactionRunner {
        InMemoryTransactionRunner.shared
    }

    /// Applies a transaction's changes to this store while holding its lock, each checked by the test's faults as the
    /// same write alone is; puts the secrets back as they were when one fails.
    package func applyingTransaction(
        _ body: ((StagedWrite.Change) throws -> Void) throws -> Void
    ) throws -> () -> Void {
        try items.withLockUndoingOnFailure { items in
            try body { change in
                switch change {
                case .storeSecret(let secret, let name):
                    try faults.willCommit(change)
                    items[name] = secret
                case .removeSecret(let name):
                    try faults.willCommit(change)
                    items[name] = nil
                case .fail(let error):
                    throw error
                case .storeValue, .removeValue, .writeFile, .removeFile:
                    throw StorageTransactionError.changeOfAnotherKind(store: "InMemoryCrypt")
                }
            }
        }
        return {}
    }
}
