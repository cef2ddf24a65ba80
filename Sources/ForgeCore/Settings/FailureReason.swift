/// Why a store's read, write, remove or listing failed: the system's cause, typed, so code can match it.
///
/// Every store module reports it the same way: ``FileStoreError`` as its `reason`, `KVStoreError` and
/// `CryptStoreError` as their `underlying` value, and each of them as `reason`:
///
/// ```swift
/// do {
///     try store.set(TaskKeys.settings, value: settings)
/// } catch let error as KVStoreError where error.reason == .outOfSpace {
///     // ask the user to free some space
/// }
/// ```
///
/// A failure the system does not tell apart, or one a store describes itself, is ``other(_:)`` with a
/// readable text; a string literal makes one, so `.writeFailed(key: "k", underlying: "busy")` reads as
/// `.other("busy")`.
public enum FailureReason: Sendable, Hashable {
    /// Nothing exists at the path.
    case notFound
    /// The volume is full, or the user's quota is used up.
    case outOfSpace
    /// The process may not do this: missing permission, or data protection while the device is locked.
    case permissionDenied
    /// The volume is mounted read-only.
    case readOnlyVolume
    /// The path names a folder, not a file.
    case isFolder
    /// A folder on the way to the path is a file (saving `a/b` when `a` is a file).
    case parentIsFile
    /// A symbolic link stands at the path or on the way to it. Stores never follow links inside their
    /// folder, so nothing outside it can be reached through one.
    case symbolicLink
    /// The device failed to read or write the data (an input/output error).
    case ioError
    /// Another connection or process kept the data locked past the time the store may wait for it: for example a
    /// database file that another process holds in a write transaction past the store's busy timeout. The same call
    /// may succeed later.
    case busy
    /// Any other failure, as the system or the store describes it.
    case other(String)
}

extension FailureReason: CustomStringConvertible {
    /// A short phrase for the reason, for example "there is no space left on the volume".
    public var description: String {
        switch self {
        case .notFound: "it does not exist"
        case .outOfSpace: "there is no space left on the volume"
        case .permissionDenied: "permission was denied"
        case .readOnlyVolume: "the volume is read-only"
        case .isFolder: "it is a folder, not a file"
        case .parentIsFile: "a folder on the way is a file"
        case .symbolicLink: "a symbolic link is in the way, and links are never followed"
        case .ioError: "the device reported an input/output error"
        case .busy: "another connection or process kept it locked past the time allowed to wait"
        case .other(let message): message
        }
    }
}

extension FailureReason: ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    /// Creates ``other(_:)`` with the literal's text.
    ///
    /// - Parameter value: The text describing the failure.
    public init(stringLiteral value: String) {
        self = .other(value)
    }
}
