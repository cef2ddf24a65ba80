public import Foundation

/// An error thrown by a ``KVStoring`` operation, naming the key involved and the underlying reason.
public enum KVStoreError: LocalizedError, Sendable, Hashable {
    /// The value for `key` could not be encoded (for example a `Double.nan`); nothing was written.
    case encodingFailed(key: String, underlying: String)
    /// The value for `key` could not be written (for example the disk is full); the old value is kept.
    case writeFailed(key: String, underlying: String)
    /// The value for `key` could not be removed.
    case removeFailed(key: String, underlying: String)
    /// The store's values could not be removed.
    case removeAllFailed(underlying: String)

    /// The key the failed operation was for, or nil for ``removeAllFailed(underlying:)``.
    public var key: String? {
        switch self {
        case .encodingFailed(let key, _), .writeFailed(let key, _), .removeFailed(let key, _): key
        case .removeAllFailed: nil
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
        }
    }
}

extension KVStoreError: CustomStringConvertible {
    /// The same text as ``errorDescription``.
    public var description: String {
        errorDescription ?? "KVStoreError"
    }
}
