/// A change to one file of a store, as ``FileChangeObserving/changes(in:)`` tells it, with the file's path relative
/// to the store (as ``FileStoring/list(in:)`` shows it).
public enum FileChange: Sendable, Hashable {
    /// A file is stored at the path, where there was none.
    case created(String)
    /// The file at the path was replaced or rewritten.
    case modified(String)
    /// The file at the path went: deleted, or with its folder or the whole store.
    case deleted(String)

    /// The path of the file that changed, relative to the store.
    public var path: String {
        switch self {
        case .created(let path), .modified(let path), .deleted(let path): path
        }
    }
}
