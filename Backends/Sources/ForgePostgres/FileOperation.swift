internal import ForgeFileStore

/// A ``PostgresFileStore`` operation, which names the error its failure throws: the path's canonical spelling (the
/// typed API names the caller's spelling in its place), or an empty path for the whole store.
enum FileOperation: Sendable {
    case read(String)
    case write(String)
    case delete(String)
    case list(String)
    case deleteAll

    /// The error of this operation failing for `reason`.
    func error(_ reason: FailureReason) -> FileStoreError {
        switch self {
        case .read(let path): .readFailed(path: path, reason: reason)
        case .write(let path): .writeFailed(path: path, reason: reason)
        case .delete(let path): .deleteFailed(path: path, reason: reason)
        case .list(let path): .listFailed(path: path, reason: reason)
        case .deleteAll: .deleteFailed(path: "", reason: reason)
        }
    }
}
