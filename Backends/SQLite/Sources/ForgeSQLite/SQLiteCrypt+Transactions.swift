public import ForgeCrypt

extension SQLiteCrypt: TransactionalStore, SQLiteTransactionalStore {
    /// The store's database, which applies the transactions this store's writes and removes are part of: the stores of
    /// one ``SQLiteDatabase``, of any kind and namespace, share transactions.
    public var transactionRunner: any TransactionRunner {
        database
    }

    /// The write of `change`, made by the function the store's own `store(_:named:)` or `removeSecret(named:)` uses:
    /// the store is prepared and the secret sealed now, before the transaction begins.
    func write(for change: StagedWrite.Change) throws -> SQLiteWrite {
        switch change {
        case .storeSecret(let secret, let name): try storing(secret, named: name)
        case .removeSecret(let name): try removing(named: name)
        case .fail(let error): .failing(with: error)
        case .storeValue, .removeValue, .writeFile, .removeFile:
            throw StorageTransactionError.changeOfAnotherKind(store: "SQLiteCrypt")
        }
    }
}
