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
    /// A value is stored for `key` but does not decode as the type asked for (the model changed since it was
    /// written, or the value is damaged); nothing was changed. `underlying` is the decoder's description.
    case decodingFailed(key: String, underlying: String)
    /// The value for `key` could not be read (for example permission was denied); nothing was changed.
    case readFailed(key: String, underlying: FailureReason)
    /// The store's keys could not be listed.
    case listFailed(underlying: FailureReason)
    /// The value for `key` could not be written (for example the disk is full); the old value is kept.
    case writeFailed(key: String, underlying: FailureReason)
    /// The value for `key` could not be removed.
    case removeFailed(key: String, underlying: FailureReason)
    /// The store's values could not be removed.
    case removeAllFailed(underlying: FailureReason)
    /// The values set in the `UserDefaults` domain `domain` could not be written to its property list
    /// (``UserDefaultsKVStore/flush()``); they are kept in memory, and the next flush tries again.
    case flushFailed(domain: String, underlying: FailureReason)

    /// The key the failed operation was for, or nil for ``removeAllFailed(underlying:)``,
    /// ``listFailed(underlying:)`` and ``flushFailed(domain:underlying:)``.
    public var key: String? {
        switch self {
        case .encodingFailed(let key, _), .decodingFailed(let key, _), .readFailed(let key, _),
            .writeFailed(let key, _), .removeFailed(let key, _):
            key
        case .removeAllFailed, .listFailed, .flushFailed: nil
        }
    }

    /// Why the storage underneath failed: the `underlying` reason of a failed read, write, remove, remove-all,
    /// listing or flush; nil for ``encodingFailed(key:underlying:)`` and ``decodingFailed(key:underlying:)``,
    /// where the storage did not fail.
    public var reason: FailureReason? {
        switch self {
        case .readFailed(_, let reason), .writeFailed(_, let reason), .removeFailed(_, let reason),
            .removeAllFailed(let reason), .listFailed(let reason), .flushFailed(_, let reason):
            reason
        case .encodingFailed, .decodingFailed: nil
        }
    }

    /// A readable sentence naming the key and the reason.
    public var errorDescription: String? {
        switch self {
        case .encodingFailed(let key, let underlying):
            "Could not encode the value for key '\(key)': \(underlying)"
        case .decodingFailed(let key, let underlying):
            "The value stored for key '\(key)' does not decode as the type asked for: \(underlying)"
        case .readFailed(let key, let underlying):
            "Could not read the value for key '\(key)': \(underlying)"
        case .listFailed(let underlying):
            "Could not list the keys: \(underlying)"
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
