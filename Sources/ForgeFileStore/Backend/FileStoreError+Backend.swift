extension FileStoreError {
    /// What the typed API throws for `error`, which a backend's requirement threw during `operation` on `path` (as
    /// the caller spelled it; empty for the whole store).
    ///
    /// A ``FileStoreError`` is thrown naming `path`, whatever path the backend named (its canonical spelling, most
    /// often); any other error as the operation's failure, with the error's description for a reason.
    init(backendError error: any Error, operation: Operation, path: String) {
        guard let storeError = error as? FileStoreError else {
            self.init(operation, path: path, reason: .other(String(describing: error)))
            return
        }
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
