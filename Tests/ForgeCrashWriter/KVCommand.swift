import ForgeKVStore
import Foundation

/// The `kv` mode of the child process: writes to a ``DiskKVStore`` from a process of its own, for the tests of what
/// another process's streams see.
///
/// Usage: `ForgeCrashWriter kv <folder> <namespace> count <key> <n>` sets the `Int` key to 1, 2, … n in turn;
/// `ForgeCrashWriter kv <folder> <namespace> remove <key>` removes it; `ForgeCrashWriter kv <folder> <namespace> claim
/// <prefix> <n> <tag>` sets the `String` keys `<prefix>.0` … `<prefix>.<n-1>` to `tag` if absent, in turn, and prints
/// how many it stored.
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
        case "claim":
            guard arguments.count == 6, let count = Int(arguments[4]) else { return false }
            var stored = 0
            for index in 0..<count {
                let claim = KVKey<String>("\(arguments[3]).\(index)")
                if try store.setIfAbsent(claim, value: arguments[5], lifetime: .after(.seconds(3600))) { stored += 1 }
            }
            print(stored)
        default:
            return false
        }
        return true
    }
}
