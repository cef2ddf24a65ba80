internal import ForgeCore

extension FileStoreError {
    /// The store operation a `FileSystemError` came from, which decides what its code means to the user.
    enum Operation {
        case read, write, delete, deleteAll, list
    }

    /// The store error for a failed system call made for `operation` on the user's `path`.
    ///
    /// The one translation of system errors for the file stores: ``DiskFileStore`` uses it for its calls, and
    /// ``InMemoryFileStore`` for the calls an injected fault fails, so both report a failure alike.
    init(_ error: FileSystemError, operation: Operation, path: String) {
        switch operation {
        case .read:
            self = error.isNotFound ? .notFound(path: path) : .readFailed(path: path, reason: error.reason)
        case .write:
            self = error.isAlreadyExists ? .alreadyExists(path: path) : .writeFailed(path: path, reason: error.reason)
        case .delete:
            self = error.isNotFound ? .notFound(path: path) : .deleteFailed(path: path, reason: error.reason)
        case .deleteAll:
            self = .deleteFailed(path: path, reason: error.reason)
        case .list:
            self = .listFailed(path: path, reason: error.reason)
        }
    }
}
