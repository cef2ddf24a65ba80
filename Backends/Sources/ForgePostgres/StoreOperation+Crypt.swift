internal import ForgeCrypt

extension StoreOperation {
    /// The error of this operation of a secrets store failing for `reason`.
    func cryptStoreError(_ reason: FailureReason) -> CryptStoreError {
        switch self {
        case .read(let key): .readFailed(key: key, underlying: reason)
        case .write(let key): .writeFailed(key: key, underlying: reason)
        case .remove(let key): .removeFailed(key: key, underlying: reason)
        case .removeAll: .removeAllFailed(underlying: reason)
        case .list: .listFailed(underlying: reason)
        }
    }
}
