import ForgeFileStore
import Foundation

/// The `files` mode of the child process: changes a ``DiskFileStore`` from a process of its own, for the tests of
/// what another process's change streams see.
///
/// Usage: `ForgeCrashWriter files <folder> <namespace> save <n>` saves ``paths(count:)`` in turn;
/// `ForgeCrashWriter files <folder> <namespace> delete-all` deletes everything.
enum FilesCommand {
    /// The paths `save <n>` saves, spread over three nested folders.
    static func paths(count: Int) -> [String] {
        (1...max(count, 1)).map { "batch/\($0 % 3)/file-\($0).txt" }
    }

    /// Runs the command in `arguments` (everything after `files`); returns false when they are malformed.
    static func run(_ arguments: [String]) async throws -> Bool {
        guard arguments.count >= 3 else { return false }
        let store = DiskFileStore(directory: .custom(URL(fileURLWithPath: arguments[0])), namespace: arguments[1])
        switch arguments[2] {
        case "save":
            guard arguments.count == 4, let count = Int(arguments[3]) else { return false }
            for path in paths(count: count) { try await store.save(Data(path.utf8), to: path) }
        case "delete-all":
            try await store.deleteAll()
        default:
            return false
        }
        return true
    }
}
