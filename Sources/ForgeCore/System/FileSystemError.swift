/// A failed system call, with the path it was made on and the `errno` it returned.
///
/// The stores translate it into their own typed errors through ``reason``; that and the questions the stores ask of
/// an error (``isNotFound``, ``isAlreadyExists``, …) read `errno` in `SystemCodes.swift`, beside the calls.
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

    /// A readable sentence naming the operation, the path and the cause.
    package var description: String {
        "\(operation.rawValue) '\(path)' failed: \(message) (errno \(code))"
    }
}
