import ForgeKVStore
import Foundation

/// The `defaults` mode of the child process: one ``UserDefaultsKVStore`` call in a process of its own, for the
/// tests that check what another process sees.
///
/// Usage: `ForgeCrashWriter defaults <suite> set|get|remove|removeAll <key> [int|string|date] [value]`. The suite
/// `-` means the standard defaults. `get` prints the value (a date as its seconds since 2001) or `nil`. The
/// process exits normally after the call, without calling `flush()` or `synchronize()`: what it set reaches the
/// property list through the store's flush behind or its exit handler. `count <key> int <n>` sets the key to
/// 1, 2, … n in turn, for the tests of processes that write at the same time.
enum DefaultsCommand {
    /// The value types the command line can name.
    enum ValueType: String {
        case int
        case string
        case date
    }

    /// Runs the command in `arguments` (everything after `defaults`); returns false when they are malformed.
    static func run(_ arguments: [String]) throws -> Bool {
        guard arguments.count >= 2 else { return false }
        let store = arguments[0] == "-" ? UserDefaultsKVStore() : UserDefaultsKVStore(suiteName: arguments[0])
        let operation = arguments[1]
        if operation == "removeAll" {
            try store.removeAll()
            return true
        }
        guard arguments.count >= 4, let type = ValueType(rawValue: arguments[3]) else { return false }
        let key = arguments[2]
        switch (operation, type) {
        case ("set", .int):
            guard arguments.count == 5, let value = Int(arguments[4]) else { return false }
            try store.set(KVKey<Int>(key), value: value)
        case ("set", .string):
            guard arguments.count == 5 else { return false }
            try store.set(KVKey<String>(key), value: arguments[4])
        case ("set", .date):
            guard arguments.count == 5, let seconds = Double(arguments[4]) else { return false }
            try store.set(KVKey<Date>(key), value: Date(timeIntervalSinceReferenceDate: seconds))
        case ("get", .int):
            print(store.get(KVKey<Int>(key)).map(String.init) ?? "nil")
        case ("get", .string):
            print(store.get(KVKey<String>(key)) ?? "nil")
        case ("get", .date):
            print(store.get(KVKey<Date>(key)).map { "\($0.timeIntervalSinceReferenceDate)" } ?? "nil")
        case ("count", .int):
            guard arguments.count == 5, let count = Int(arguments[4]), count > 0 else { return false }
            for value in 1...count { try store.set(KVKey<Int>(key), value: value) }
        case ("remove", _):
            try store.remove(KVKey<Int>(key))
        default:
            return false
        }
        return true
    }
}
