public import Foundation

/// An error thrown by a ``KVStoring`` operation, naming the key involved and the underlying reason.
///
/// A failure of the storage underneath carries a typed `FailureReason`, so code can tell a full disk from
/// a denied permission:
///
/// ```swift
/// do {
///     try store.set(TaskKeys.taskCount, value: 5)
/// } catch KVStoreError.writeFailed(_, .outOfSpace) {
///     // ask the user to free some space
/// } catch let error as KVStoreError {
///     print(error.localizedDescription)
/// }
/// ```
public enum KVStoreError: LocalizedError, Sendable, Hashable {
    /// The value for `key` could not be encoded (for example a `Double.nan`); nothing was written.
    /// `underlying` is the encoder's description of the problem.
    case encodingFailed(key: String, underlying: String)
    /// The value for `key` could not be written (for example the disk is full); the old value is kept.
    case writeFailed(key: String, underlying: FailureReason)
    /// The value for `key` could not be removed.
    case removeFailed(key: String, underlying: FailureReason)
    /// The store's values could not be removed.
    case removeAllFailed(underlying: FailureReason)
    /// The values set in the `UserDefaults` domain `domain` could not be written to its property list
    /// (``UserDefaultsKVStore/flush()``); they are kept in memory, and the next flush tries again.
    case flushFailed(domain: String, underlying: FailureReason)

    /// The key the failed operation was for, or nil for ``removeAllFailed(underlying:)`` and
    /// ``flushFailed(domain:underlying:)``.
    public var key: String? {
        switch self {
        case .encodingFailed(let key, _), .writeFailed(let key, _), .removeFailed(let key, _): key
        case .removeAllFailed, .flushFailed: nil
        }
    }

    /// Why the storage underneath failed: the `underlying` reason of a failed write, remove, remove-all or flush;
    /// nil for ``encodingFailed(key:underlying:)``, which fails before anything is stored.
    public var reason: FailureReason? {
        switch self {
        case .writeFailed(_, let reason), .removeFailed(_, let reason), .removeAllFailed(let reason),
            .flushFailed(_, let reason):
            reason
        case .encodingFailed: nil
        }
    }

    /// A readable sentence naming the key and the reason.
    public var errorDescription: String? {
        switch self {
        case .encodingFailed(let key, let underlying):
            "Could not encode the value for key '\(key)': \(underlying)"
        case .writeFailed(let key, let underlying):
            "Could not write the value for key '\(key)': \(underlying)"
        case .removeFailed(let key, let underlying):
            "Could not remove the value for key '\(key)': \(underlying)"
        case .removeAllFailed(let underlying):
            "Could not remove all values: \(underlying)"
        case .flushFailed(let domain, let underlying):
            "Could not write the values of the defaults domain '\(domain)' to its property list: \(underlying)"
        }
    }
}

extension KVStoreError: CustomStringConvertible {
    /// The same text as ``errorDescription``.
    public var description: String {
        errorDescription ?? "KVStoreError"
    }
}
