internal import Foundation

extension FileSystemError {
    /// The error of `operation` on `path` that just failed; `errno` is read first, as building `path` may change it.
    static func current(_ operation: Operation, path: @autoclosure () -> String) -> FileSystemError {
        let code = errno
        return FileSystemError(operation, path: path(), code: code)
    }
}
