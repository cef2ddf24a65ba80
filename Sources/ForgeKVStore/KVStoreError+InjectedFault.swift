internal import ForgeCore

extension KVStoreError {
    /// The error ``DiskKVStore`` throws when writing `key` fails as `fault` says, or the test's own error.
    static func injected(_ fault: InjectedFault, writing key: String) -> any Error {
        if case .error(let error) = fault { return error }
        return KVStoreError.writeFailed(key: key, underlying: fault.systemError(.open, path: key).description)
    }

    /// The error ``DiskKVStore`` throws when removing `key` (nil for every key) fails as `fault` says, or the
    /// test's own error.
    static func injected(_ fault: InjectedFault, removing key: String?) -> any Error {
        if case .error(let error) = fault { return error }
        guard let key else {
            return KVStoreError.removeAllFailed(underlying: fault.systemError(.remove, path: "").description)
        }
        return KVStoreError.removeFailed(key: key, underlying: fault.systemError(.remove, path: key).description)
    }
}
