public import Foundation

/// Why a ``StorageTransaction`` could not take a write or be applied; nothing of it was applied.
public enum StorageTransactionError: LocalizedError, Sendable, Hashable {
    /// A store's writes cannot join a transaction of stores of another database; the names are the two runners'
    /// types (one type when the two databases are two instances of it).
    case storesOfDifferentDatabases(String, String)
    /// A write was staged after `StorageTransaction.run(_:)` returned.
    case transactionEnded
    /// The stores' runner applies writes only while the caller waits (a database behind a network): call
    /// `try await StorageTransaction.run`.
    case commitNeedsAwait(String)
    /// A change of another kind than the store keeps (a file written to a key-value store) was staged for a store of
    /// type `store`.
    case changeOfAnotherKind(store: String)

    /// A sentence that says what went wrong.
    public var errorDescription: String? {
        switch self {
        case .storesOfDifferentDatabases(let first, let other) where first == other:
            "The stores of one transaction must share one database; a store of another \(first) cannot join."
        case .storesOfDifferentDatabases(let first, let other):
            "The stores of one transaction must share one database; a store of \(other) cannot join one of \(first)."
        case .transactionEnded:
            "The transaction has ended: stage its writes inside the body of StorageTransaction.run."
        case .commitNeedsAwait(let runner):
            "The stores of \(runner) apply a transaction only asynchronously: use try await StorageTransaction.run."
        case .changeOfAnotherKind(let store):
            "A store of type \(store) was given a change of another kind of store in a transaction."
        }
    }
}
