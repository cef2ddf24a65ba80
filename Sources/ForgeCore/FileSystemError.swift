#if canImport(Darwin)
internal import Darwin
#elseif canImport(Glibc)
@preconcurrency internal import Glibc
#elseif canImport(Musl)
@preconcurrency internal import Musl
#elseif canImport(Android)
@preconcurrency internal import Android
#endif

/// A failed system call, with the path it was made on and the `errno` it returned.
///
/// The stores translate it into their own typed errors; the helpers below tell the common
/// causes apart without every store comparing `errno` values itself.
package struct FileSystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The operation that failed.
    package enum Operation: String, Sendable {
        case open, read, write, sync, close, rename, link, remove, createDirectory, list, stat, setAttributes
    }

    /// The operation that failed.
    package let operation: Operation
    /// The path the operation was made on.
    package let path: String
    /// The `errno` value the system returned.
    package let code: Int32

    /// Creates an error from an operation, a path and an `errno` value.
    package init(_ operation: Operation, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// No file or folder exists at the path.
    package var isNotFound: Bool { code == ENOENT || code == ENOTDIR }
    /// Something already exists at the path.
    package var isAlreadyExists: Bool { code == EEXIST }
    /// The volume is full, or the user's quota is used up.
    package var isOutOfSpace: Bool { code == ENOSPC || code == EDQUOT }
    /// The process may not do this: missing permission, or a read-only volume.
    package var isPermissionDenied: Bool { code == EACCES || code == EPERM || code == EROFS }
    /// A folder stands where a file was expected.
    package var isDirectory: Bool { code == EISDIR }
    /// A file stands where a folder was expected.
    package var isNotDirectory: Bool { code == ENOTDIR }
    /// A symbolic link stands where it may not be followed.
    package var isSymbolicLink: Bool { code == ELOOP }

    /// The system's text for the error, for example "No space left on device".
    package var message: String {
        String(cString: strerror(code))
    }

    /// The typed cause of the error, as the stores report it; ``description`` for a code it does not name.
    package var reason: FailureReason {
        switch code {
        case ENOENT: .notFound
        case ENOSPC, EDQUOT: .outOfSpace
        case EROFS: .readOnlyVolume
        case EACCES, EPERM: .permissionDenied
        case EISDIR: .isFolder
        case ENOTDIR: .parentIsFile
        case ELOOP: .symbolicLink
        case EIO: .ioError
        default: .other(description)
        }
    }

    /// A readable sentence naming the operation, the path and the cause.
    package var description: String {
        "\(operation.rawValue) '\(path)' failed: \(message) (errno \(code))"
    }
}
