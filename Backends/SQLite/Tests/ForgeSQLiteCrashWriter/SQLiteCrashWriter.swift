import ForgeSQLite
import Foundation

/// The process the crash test kills: it writes to a `SQLiteKVStore` and acknowledges each write once the call
/// returns, until it is killed.
///
/// `ForgeSQLiteCrashWriter <database> <atomic|flushed> <first>` stores, for each number `n` from `first` on, `n` under
/// the key `value.<n>` and under `latest`, then prints `n` and a newline on standard output (one `write`, not
/// buffered): a number printed is a write the store acknowledged. Every tenth number also removes `value.<n - 5>`,
/// acknowledged as `-<n - 5>`. It stops by itself after 100,000 numbers.
@main
enum SQLiteCrashWriter {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count == 4, let first = Int(arguments[3]), ["atomic", "flushed"].contains(arguments[2]) else {
            let usage = "usage: ForgeSQLiteCrashWriter <database> <atomic|flushed> <first>\n"
            FileHandle.standardError.write(Data(usage.utf8))
            exit(2)
        }
        let store = SQLiteKVStore(
            fileURL: URL(fileURLWithPath: arguments[1]),
            namespace: "crash",
            durability: arguments[2] == "flushed" ? .flushed : .atomic
        )
        do {
            for number in first..<(first + 100_000) {
                try store.set(KVKey<Int>("value.\(number)"), value: number)
                try store.set(KVKey<Int>("latest"), value: number)
                acknowledge("\(number)")
                if number % 10 == 0, number - 5 >= first {
                    try store.remove(KVKey<Int>("value.\(number - 5)"))
                    acknowledge("-\(number - 5)")
                }
            }
        } catch {
            FileHandle.standardError.write(Data("ForgeSQLiteCrashWriter: \(error)\n".utf8))
            exit(3)
        }
    }

    /// Prints `line` on standard output in one system call.
    private static func acknowledge(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
