public import Foundation

/// An error thrown by a ``FileStoring`` operation, naming the path involved and the reason.
///
/// Every store throws the same error for the same situation, so code (and tests) can match on it:
///
/// ```swift
/// do {
///     try await store.save(data, to: "report.pdf", overwrite: false)
/// } catch FileStoreError.alreadyExists {
///     // keep the existing report
/// } catch FileStoreError.writeFailed(_, .outOfSpace) {
///     // ask the user to free some space
/// }
/// ```
public enum FileStoreError: LocalizedError, Sendable, Hashable {
    /// No file is stored at `path`.
    case notFound(path: String)
    /// A file is already stored at `path`, and the save was asked not to replace it.
    case alreadyExists(path: String)
    /// `path` is not a usable relative path (empty, absolute, with a `..` name, a NUL, too long…); nothing
    /// was read, written or deleted.
    case invalidPath(path: String, reason: String)
    /// The file at `path` exists but could not be read.
    case readFailed(path: String, reason: Reason)
    /// The data could not be saved to `path`; what was stored there before is kept.
    case writeFailed(path: String, reason: Reason)
    /// The file at `path` could not be deleted. An empty path stands for the whole store (``FileStoring/deleteAll()``).
    case deleteFailed(path: String, reason: Reason)
    /// The folder at `path` could not be listed. An empty path stands for the whole store
    /// (``FileStoring/list(in:)`` of the root, or ``FileStoring/totalSize()``).
    case listFailed(path: String, reason: Reason)
    /// The value could not be encoded as JSON for `path`; nothing was written.
    case encodingFailed(path: String, underlying: String)
    /// The file at `path` is not JSON of the requested type.
    case decodingFailed(path: String, underlying: String)

    /// Why a read, write, delete or listing failed: the `FailureReason` every store module reports.
    public typealias Reason = FailureReason

    /// The path the failed operation was for, as it was given; empty for the whole store.
    public var path: String {
        switch self {
        case .notFound(let path), .alreadyExists(let path), .invalidPath(let path, _), .readFailed(let path, _),
            .writeFailed(let path, _), .deleteFailed(let path, _), .listFailed(let path, _),
            .encodingFailed(let path, _), .decodingFailed(let path, _):
            path
        }
    }

    /// The system's reason for the failure: `.notFound` for ``notFound(path:)``, the reason of
    /// a failed read, write, delete or listing, and nil for the other cases, which the store decides itself.
    public var reason: FailureReason? {
        switch self {
        case .notFound: .notFound
        case .readFailed(_, let reason), .writeFailed(_, let reason), .deleteFailed(_, let reason),
            .listFailed(_, let reason):
            reason
        case .alreadyExists, .invalidPath, .encodingFailed, .decodingFailed: nil
        }
    }

    /// A readable sentence naming the path and the reason.
    public var errorDescription: String? {
        switch self {
        case .notFound(let path):
            "No file is stored at '\(path)'."
        case .alreadyExists(let path):
            "A file is already stored at '\(path)'."
        case .invalidPath(let path, let reason):
            "'\(path)' is not a valid file path: \(reason)."
        case .readFailed(let path, let reason):
            "Could not read '\(path)': \(reason)."
        case .writeFailed(let path, let reason):
            "Could not save '\(path)': \(reason)."
        case .deleteFailed(let path, let reason):
            path.isEmpty ? "Could not delete the store's files: \(reason)." : "Could not delete '\(path)': \(reason)."
        case .listFailed(let path, let reason):
            path.isEmpty ? "Could not list the store's files: \(reason)." : "Could not list '\(path)': \(reason)."
        case .encodingFailed(let path, let underlying):
            "Could not encode the value for '\(path)' as JSON: \(underlying)"
        case .decodingFailed(let path, let underlying):
            "The file at '\(path)' could not be decoded from JSON: \(underlying)"
        }
    }
}

extension FileStoreError: CustomStringConvertible {
    /// The same text as ``errorDescription``.
    public var description: String {
        errorDescription ?? "FileStoreError"
    }
}
