public import ForgeKVStore
internal import GRDB

/// A store of a ``SQLiteDatabase`` whose writes the database applies, alone or in a transaction.
protocol SQLiteTransactionalStore: TransactionalStore {
    /// The database the store's rows live in.
    var database: SQLiteDatabase { get }

    /// The write of `change` in this store, made as the store makes the same write alone.
    ///
    /// - Throws: The store's error for the same write alone when it cannot be made before the writer is taken (a
    ///   secret store that cannot be prepared), or `StorageTransactionError.changeOfAnotherKind(store:)`.
    func write(for change: StagedWrite.Change) throws -> SQLiteWrite
}

extension SQLiteDatabase: TransactionRunner {
    /// Applies `writes`, staged by a `StorageTransaction` for stores of this database, in one SQLite transaction on
    /// the writer connection, in order: all of them, or none.
    ///
    /// The stores of one database (of any kinds and namespaces) return it as their `transactionRunner`, so they share
    /// transactions; the stores of another `SQLiteDatabase`, even on the same file, do not. The transaction is flushed
    /// when a store of it is `.flushed`. Secrets are sealed before the transaction begins; each secret store checks its
    /// namespace's header inside it, as its writes alone do. Once it commits, the observers of the key-value stores
    /// are told of each name written or removed, as after the writes alone. `StorageTransaction.run(_:)` calls this:
    /// you need not.
    ///
    /// - Throws: The error of the first write that fails, as its store throws it for the same write alone (a failure
    ///   to open the database or to commit, as the first write's), or `StorageTransactionError` for a store that is not
    ///   of this database or a change of another kind; nothing is applied then.
    public func commit(_ writes: [StagedWrite]) throws {
        var prepared: [SQLiteWrite] = []
        prepared.reserveCapacity(writes.count)
        for staged in writes {
            guard let store = Self.store(of: staged), store.database === self else {
                throw StorageTransactionError.storesOfDifferentDatabases(
                    String(describing: Self.self),
                    String(describing: type(of: staged.store))
                )
            }
            prepared.append(try store.write(for: staged.change))
        }
        try apply(prepared)
    }

    /// The store of `staged` as a store of a database, or nil for a store of another kind.
    private static func store(of staged: StagedWrite) -> (any SQLiteTransactionalStore)? {
        // A cast to a store's own type compares types; a cast to the protocol searches the conformances, once per
        // write of a transaction.
        switch staged.store {
        case let store as SQLiteKVStore: store
        case let store as SQLiteFileStore: store
        case let store as SQLiteCrypt: store
        default: staged.store as? any SQLiteTransactionalStore
        }
    }
}

extension SQLiteDatabase {
    /// Runs `writes` on the writer in order, a write of one statement alone and any other in one immediate
    /// transaction (or, beside other callers' writes in one commit, in a savepoint of it), then tells the observers of
    /// the key-value rows they changed.
    ///
    /// The writer's `synchronous` is that of the strongest durability among the writes. A read that began before the
    /// writes keeps none of the values they replace.
    ///
    /// - Throws: The store's error of the write that failed, or the first write's error for a failure of the database
    ///   itself (opening, beginning or committing); nothing is applied then.
    func apply(_ writes: [SQLiteWrite]) throws {
        guard let first = writes.first else { return }
        let isOneStatement = writes.count == 1 && first.isOneStatement
        let durability: Durability = writes.contains { $0.durability == .flushed } ? .flushed : .atomic
        do {
            try write(
                durability,
                changing: writes.compactMap { $0.changedValue?.key },
                isOneStatement: isOneStatement
            ) { db in
                var statements = RowStatements(isInTransaction: !isOneStatement)
                for write in writes { try write.run(in: db, at: path, &statements) }
            }
        } catch let failed as SQLiteWrite.Failed {
            throw failed.error
        } catch {
            throw first.failure(error, path: path)
        }
        changes.tell(writes)
    }
}
