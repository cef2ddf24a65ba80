internal import ForgeCore

extension KVStoreError {
    /// The store error for a failed system call made while reading `key`.
    init(_ error: FileSystemError, reading key: String) {
        self = .readFailed(key: key, underlying: error.reason)
    }

    /// The store error for a failed system call made while listing the keys.
    init(listing error: FileSystemError) {
        self = .listFailed(underlying: error.reason)
    }

    /// The store error for a failed system call made while writing `key`.
    ///
    /// With ``init(_:removing:)``, the one translation of system errors for the key-value stores:
    /// ``DiskKVStore`` uses it for its calls, and ``InMemoryKVStore`` for the calls an injected fault fails,
    /// so both report a failure alike.
    init(_ error: FileSystemError, writing key: String) {
        self = .writeFailed(key: key, underlying: error.reason)
    }

    /// The store error for a failed system call made while removing `key`, or every key when it is nil.
    init(_ error: FileSystemError, removing key: String?) {
        if let key {
            self = .removeFailed(key: key, underlying: error.reason)
        } else {
            self = .removeAllFailed(underlying: error.reason)
        }
    }
}
