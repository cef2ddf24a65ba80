public import Foundation

/// One write or removal of a ``StorageTransaction``, in the terms of its store's contract: names and paths as the
/// store keeps them, values already encoded.
///
/// A ``TransactionRunner`` receives them; only the typed methods of a transaction (`set(_:value:in:)`,
/// `save(_:to:overwrite:in:)`, …) make them, so a path has passed the rules of file paths and is in its canonical
/// spelling, and a value is the JSON of a value that encoded.
public struct StagedWrite: Sendable {
    /// The store the change is for; its runner is the transaction's.
    public let store: any TransactionalStore
    /// What to change.
    public let change: Change

    /// Creates the write of `change` in `store`: only the typed methods of a transaction make one, once they have
    /// checked the key or path and encoded the value.
    package init(store: any TransactionalStore, change: Change) {
        self.store = store
        self.change = change
    }

    /// A change a transaction makes, as a key-value, file or secret store's contract names it.
    public enum Change: Sendable {
        /// Stores `json` under `name`, replacing what is there, to expire `expiresAtMilliseconds` after 1970 (nil:
        /// never; a key-value store).
        case storeValue(json: Data, name: String, expiresAtMilliseconds: Int64?)
        /// Removes the value stored under `name`, when there is one (a key-value store).
        case removeValue(name: String)
        /// Stores `data` as the file at `path`, a path already checked and in its canonical spelling; with
        /// `replacing` false, a file already there fails the transaction with `alreadyExists` (a file store).
        case writeFile(Data, path: String, replacing: Bool)
        /// Removes the file at `path`, already checked; a path where no file is fails the transaction with
        /// `notFound`, as a file store's `delete` does.
        case removeFile(path: String)
        /// Stores the bytes of a secret under `name` (a secret store, which seals them as it seals every secret).
        case storeSecret(Data, name: String)
        /// Removes the secret stored under `name`, when there is one (a secret store).
        case removeSecret(name: String)
        /// Fails the transaction with `error` when the runner reaches it, as a write that fails there would:
        /// ForgeStorageTesting's checks stage it between writes to prove that a store's transactions are all or
        /// nothing.
        case fail(any Error & Sendable)
    }
}
