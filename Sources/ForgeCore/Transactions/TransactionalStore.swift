/// A store whose writes can be part of a ``StorageTransaction``: each kind's protocol refines it
/// (`TransactionalKVStore`, `TransactionalFileStore`, `TransactionalCrypt`).
public protocol TransactionalStore: Sendable {
    /// What applies the transactions this store's writes are part of; stores that return the same instance (the
    /// stores of one database) can share a transaction.
    var transactionRunner: any TransactionRunner { get }
}
