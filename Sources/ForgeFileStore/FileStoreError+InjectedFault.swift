internal import ForgeCore

extension FileStoreError {
    /// The error ``DiskFileStore`` throws when `operation` on `path` fails as `fault` says.
    ///
    /// A `.error` fault is the test's own error, returned as it is. An empty path stands for the whole store,
    /// as in the disk store's errors.
    static func injected(_ fault: InjectedFault, _ operation: Operation, path: String) -> any Error {
        if case .error(let error) = fault { return error }
        let call: FileSystemError.Operation =
            switch operation {
            case .read, .write: .open
            case .delete: .remove
            case .list: .list
            }
        return FileStoreError(fault.systemError(call, path: path), operation: operation, path: path)
    }
}
