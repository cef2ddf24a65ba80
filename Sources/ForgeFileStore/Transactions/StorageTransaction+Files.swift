public import ForgeCore
public import Foundation

/// The saves and deletes of file stores in a transaction, written once for every ``TransactionalFileStore``: paths
/// are checked by the rules of ``FileStoring`` when they are staged.
extension StorageTransaction {
    /// Saves `data` as the file at `path` in `store` when the transaction is applied, creating the folders on the
    /// way.
    ///
    /// - Parameters:
    ///   - data: The bytes to store.
    ///   - path: Where to store them, checked now.
    ///   - overwrite: Whether a file already at `path` is replaced; when false and a file is there when the
    ///     transaction is applied, the transaction fails with ``FileStoreError/alreadyExists(path:)`` and applies
    ///     nothing.
    ///   - store: The store to save to.
    /// - Throws: ``FileStoreError/invalidPath(path:reason:)`` now, or `StorageTransactionError`.
    public func save(
        _ data: Data,
        to path: String,
        overwrite: Bool = true,
        in store: some TransactionalFileStore
    ) throws {
        let file = try StoredFilePath(validating: path)
        try stage(.writeFile(data, path: file.string, replacing: overwrite), in: store)
    }

    /// Deletes the file at `path` from `store` when the transaction is applied; when no file is there then, the
    /// transaction fails with ``FileStoreError/notFound(path:)`` and applies nothing, as ``FileStoring/delete(_:)``
    /// fails.
    ///
    /// - Throws: ``FileStoreError/invalidPath(path:reason:)`` now, or `StorageTransactionError`.
    public func delete(_ path: String, in store: some TransactionalFileStore) throws {
        let file = try StoredFilePath(validating: path)
        try stage(.removeFile(path: file.string), in: store)
    }
}
