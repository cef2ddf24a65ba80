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

    /// Why a read, write, delete or listing failed.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// The volume is full, or the user's quota is used up.
        case outOfSpace
        /// The process may not do this: missing permission, or a read-only volume.
        case permissionDenied
        /// The path names a folder (a folder holds files stored beneath it), not a file.
        case isFolder
        /// A folder on the way to the path is a file (saving `a/b` when `a` is a file).
        case parentIsFile
        /// A symbolic link stands at the path or on the way to it. Stores never follow links inside their
        /// folder, so nothing outside it can be reached through one.
        case symbolicLink
        /// Any other failure, as the system describes it.
        case other(String)

        /// A short phrase for the reason, for example "the disk is full".
        public var description: String {
            switch self {
            case .outOfSpace: "there is no space left on the volume"
            case .permissionDenied: "permission was denied"
            case .isFolder: "it is a folder, not a file"
            case .parentIsFile: "a folder on the way is a file"
            case .symbolicLink: "a symbolic link is in the way, and links are never followed"
            case .other(let message): message
            }
        }
    }

    /// The path the failed operation was for, as it was given; empty for the whole store.
    public var path: String {
        switch self {
        case .notFound(let path), .alreadyExists(let path), .invalidPath(let path, _), .readFailed(let path, _),
            .writeFailed(let path, _), .deleteFailed(let path, _), .listFailed(let path, _),
            .encodingFailed(let path, _), .decodingFailed(let path, _):
            path
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
