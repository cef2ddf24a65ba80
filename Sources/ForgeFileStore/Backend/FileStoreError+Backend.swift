extension FileStoreError {
    /// What the typed API throws for `error`, which a backend's requirement threw for `path` (as the caller spelled
    /// it; empty for the whole store).
    ///
    /// A ``FileStoreError`` is thrown naming `path`, whatever path the backend named (its canonical spelling, most
    /// often); any other error is thrown as it is, as the key-value and secret stores' typed APIs do, so that a
    /// test's own error injected as a fault (ForgeStorageTesting's `StoreFailure.error(_:)`) reaches the test.
    static func naming(_ error: any Error, path: String) -> any Error {
        guard let storeError = error as? FileStoreError else { return error }
        return FileStoreError(renaming: storeError, path: path)
    }

    /// `storeError`, naming `path`.
    private init(renaming storeError: FileStoreError, path: String) {
        switch storeError {
        case .notFound: self = .notFound(path: path)
        case .alreadyExists: self = .alreadyExists(path: path)
        case .invalidPath(_, let reason): self = .invalidPath(path: path, reason: reason)
        case .readFailed(_, let reason): self = .readFailed(path: path, reason: reason)
        case .writeFailed(_, let reason): self = .writeFailed(path: path, reason: reason)
        case .deleteFailed(_, let reason): self = .deleteFailed(path: path, reason: reason)
        case .listFailed(_, let reason): self = .listFailed(path: path, reason: reason)
        case .encodingFailed(_, let underlying): self = .encodingFailed(path: path, underlying: underlying)
        case .decodingFailed(_, let underlying): self = .decodingFailed(path: path, underlying: underlying)
        }
    }

    /// The failure of `operation` on `path` for `reason`.
    init(_ operation: Operation, path: String, reason: FailureReason) {
        switch operation {
        case .read: self = .readFailed(path: path, reason: reason)
        case .write: self = .writeFailed(path: path, reason: reason)
        case .delete, .deleteAll: self = .deleteFailed(path: path, reason: reason)
        case .list: self = .listFailed(path: path, reason: reason)
        }
    }
}
