internal import ForgeCore

extension InMemoryKVStore: TransactionalStore, InMemoryTransactionParticipant {
    /// The runner every in-memory store shares: this store's writes can join a transaction with those of any
    /// in-memory store.
    public var transactionRunner: any TransactionRunner {
        InMemoryTransactionRunner.shared
    }

    /// Applies a transaction's changes to this store while holding its lock.
    ///
    /// Each change is checked by the test's faults as the same write alone is; the values are put back as they were
    /// when one fails. Once the lock is released, the observers of changes are told of each change of a transaction
    /// that is applied, in order, by what this returns, which the runner calls once every store's lock is released.
    package func applyingTransaction(
        _ body: ((StagedWrite.Change) throws -> Void) throws -> Void
    ) throws -> () -> Void {
        var changed: [String] = []
        try entries.withLockUndoingOnFailure { entries in
            try body { change in
                switch change {
                case .storeValue(let json, let name, let expiresAt):
                    try faults.willCommit(change)
                    entries[name] = KVStoredValue(json: json, expiresAtMilliseconds: expiresAt)
                    changed.append(name)
                case .removeValue(let name):
                    try faults.willCommit(change)
                    entries[name] = nil
                    changed.append(name)
                case .fail(let error):
                    throw error
                case .writeFile, .removeFile, .storeSecret, .removeSecret:
                    throw StorageTransactionError.changeOfAnotherKind(store: "InMemoryKVStore")
                }
            }
        }
        return { [changed] in
            for name in changed { self.tell(name) }
        }
    }
}
