public import ForgeKVStore

extension SQLiteKVStore: TransactionalStore, SQLiteTransactionalStore {
    /// The store's database, which applies the transactions this store's writes are part of: the stores of one
    /// ``SQLiteDatabase``, of any kind and namespace, share transactions.
    public var transactionRunner: any TransactionRunner {
        database
    }

    /// The write of `change`, made by the function the store's own `store(_:named:)` or `removeValue(named:)` uses.
    ///
    /// A value is stored with the lifetime the transaction staged with it (`set(_:value:expiresAfter:in:)`), or none,
    /// replacing the lifetime of the value it replaces, as `set(_:value:)` does.
    func write(for change: StagedWrite.Change) throws -> SQLiteWrite {
        switch change {
        case .storeValue(let json, let name, let expiresAt): storing(json, expiringAt: expiresAt, named: name)
        case .removeValue(let name): removing(named: name)
        case .fail(let error): .failing(with: error)
        case .writeFile, .removeFile, .storeSecret, .removeSecret:
            throw StorageTransactionError.changeOfAnotherKind(store: "SQLiteKVStore")
        }
    }
}
