import ForgeKVStore
import Foundation

/// The `kv` mode of the child process: writes to a ``DiskKVStore`` from a process of its own, for the tests of what
/// another process's streams see.
///
/// Usage: `ForgeCrashWriter kv <folder> <namespace> count <key> <n>` sets the `Int` key to 1, 2, … n in turn;
/// `ForgeCrashWriter kv <folder> <namespace> remove <key>` removes it.
enum KVCommand {
    /// Runs the command in `arguments` (everything after `kv`); returns false when they are malformed.
    static func run(_ arguments: [String]) throws -> Bool {
        guard arguments.count >= 4 else { return false }
        let store = DiskKVStore(directory: .custom(URL(fileURLWithPath: arguments[0])), namespace: arguments[1])
        let key = KVKey<Int>(arguments[3])
        switch arguments[2] {
        case "count":
            guard arguments.count == 5, let count = Int(arguments[4]) else { return false }
            for value in 1...max(count, 1) { try store.set(key, value: value) }
        case "remove":
            try store.remove(key)
        default:
            return false
        }
        return true
    }
}
