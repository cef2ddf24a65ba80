/// A store whose writes can be part of a ``StorageTransaction``: each kind names it beside its server protocol
/// (`TransactionalKVStore` is `TransactionalStore & AsyncKVStoring`; `TransactionalFileStore`, `TransactionalCrypt`).
public protocol TransactionalStore: Sendable {
    /// What applies the transactions this store's writes are part of; stores that return the same instance (the
    /// stores of one database) can share a transaction.
    var transactionRunner: any TransactionRunner { get }

    /// The store the runner applies this store's staged writes to: the store itself (the default), or for a wrapper
    /// that adds no storage of its own (`reportingEvents(label:to:)`), the store it wraps.
    var transactionParticipant: any TransactionalStore { get }
}

extension TransactionalStore {
    /// The store itself: its staged writes are applied to it.
    public var transactionParticipant: any TransactionalStore { self }
}
