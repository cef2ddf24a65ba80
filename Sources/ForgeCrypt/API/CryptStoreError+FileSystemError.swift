internal import ForgeCore

extension CryptStoreError {
    /// The store error for a failed system call made while reading the item of `key`.
    ///
    /// With the initialisers below, the one translation of the vault's system errors: ``EncryptedFileCrypt``
    /// uses it for its calls, and ``InMemoryCrypt`` for the file calls an injected fault fails, so both report
    /// a failure alike. (The Keychain's statuses have their own translation, `KeychainStatus.error(for:key:)`.)
    init(_ error: FileSystemError, reading key: String) {
        self = .readFailed(key: key, underlying: error.reason)
    }

    /// The store error for a failed system call made while writing the item of `key`.
    init(_ error: FileSystemError, writing key: String) {
        self = .writeFailed(key: key, underlying: error.reason)
    }

    /// The store error for a failed system call made while removing the item of `key`, or every item when it
    /// is nil.
    init(_ error: FileSystemError, removing key: String?) {
        if let key {
            self = .removeFailed(key: key, underlying: error.reason)
        } else {
            self = .removeAllFailed(underlying: error.reason)
        }
    }

    /// The store error for a failed system call made while listing the vault's items.
    init(listing error: FileSystemError) {
        self = .listFailed(underlying: error.reason)
    }

    /// The store error for a failed system call made while opening the vault, or its key file, at `path`.
    init(_ error: FileSystemError, opening path: String) {
        self = .openFailed(path: path, underlying: error.reason)
    }
}
