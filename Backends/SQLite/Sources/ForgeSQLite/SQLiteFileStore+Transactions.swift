public import ForgeFileStore

extension SQLiteFileStore: TransactionalStore, SQLiteTransactionalStore {
    /// The store's database, which applies the transactions this store's saves and deletes are part of: the stores of
    /// one ``SQLiteDatabase``, of any kind and namespace, share transactions.
    public var transactionRunner: any TransactionRunner {
        database
    }

    /// The write of `change`, made by the function the store's own `write(_:at:replacing:)` or `removeFile(at:)`
    /// uses; a removal of a path where no file is fails the transaction with `FileStoreError.notFound(path:)`.
    func write(for change: StagedWrite.Change) throws -> SQLiteWrite {
        switch change {
        case .writeFile(let data, let path, let replacing):
            writing(data, at: try StoredFilePath(validating: path), replacing: replacing)
        case .removeFile(let path): removing(at: try StoredFilePath(validating: path))
        case .fail(let error): .failing(with: error)
        case .storeValue, .removeValue, .storeSecret, .removeSecret:
            throw StorageTransactionError.changeOfAnotherKind(store: "SQLiteFileStore")
        }
    }
}
