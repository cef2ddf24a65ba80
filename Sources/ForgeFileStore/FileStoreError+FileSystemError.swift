internal import ForgeCore

extension FileStoreError {
    /// The operation a `FileSystemError` came from, which decides what its code means to the user.
    enum Operation {
        case read, write, delete, list
    }

    /// The store error for a failed system call made for `operation` on the user's `path`.
    init(_ error: FileSystemError, operation: Operation, path: String) {
        switch operation {
        case .read:
            self = error.isNotFound ? .notFound(path: path) : .readFailed(path: path, reason: Reason(error))
        case .write:
            if error.isAlreadyExists {
                self = .alreadyExists(path: path)
            } else {
                self = .writeFailed(path: path, reason: Reason(error))
            }
        case .delete:
            self = error.isNotFound ? .notFound(path: path) : .deleteFailed(path: path, reason: Reason(error))
        case .list:
            self = .listFailed(path: path, reason: Reason(error))
        }
    }
}

extension FileStoreError.Reason {
    /// The reason a system call failed, from its `errno`.
    init(_ error: FileSystemError) {
        if error.isOutOfSpace {
            self = .outOfSpace
        } else if error.isPermissionDenied {
            self = .permissionDenied
        } else if error.isDirectory {
            self = .isFolder
        } else if error.isNotDirectory {
            self = .parentIsFile
        } else if error.isSymbolicLink {
            self = .symbolicLink
        } else {
            self = .other(error.description)
        }
    }
}
