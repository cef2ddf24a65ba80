import ForgeSQLite
import Foundation

/// The process the crash test kills: it writes to the SQLite stores and acknowledges each write once the call
/// returns, until it is killed.
///
/// `ForgeSQLiteCrashWriter <database> <atomic|flushed> <first>` stores, for each number `n` from `first` on, `n` under
/// the key `value.<n>` and under `latest` of a `SQLiteKVStore`, then prints `n` and a newline on standard output (one
/// `write`, not buffered): a number printed is a write the store acknowledged. Every tenth number also removes
/// `value.<n - 5>`, acknowledged as `-<n - 5>`. It stops by itself after 100,000 numbers.
///
/// `ForgeSQLiteCrashWriter <database> <atomic|flushed> <first> transactions` makes each number one
/// `StorageTransaction` across the three kinds of store, which prints `n` once it commits: the keys
/// `transaction.<n>.0` to `transaction.<n>.3` and `latest` set to `n`, the file `transactions/<n>` saved with `n` as
/// text, and the secret `transaction.<n>` set to `n` (under ``masterKey``). Every tenth transaction also removes the
/// keys, file and secret of `n - 5`, and prints `-<n - 5>` after `n`.
///
/// `ForgeSQLiteCrashWriter <database> <atomic|flushed> <first> writers` runs ``writerCount`` threads on one database, whose
/// writes the database commits together: thread `t` stores, for each number `n` from `first` on, `n` under the key
/// `writer.<t>.<n>`, and prints `<t>:<n>` once the call returned.
///
/// `ForgeSQLiteCrashWriter <database> rotate <namespace> <old-key> <new-key>` changes the master key of a `SQLiteCrypt`
/// namespace, each key `symmetric:<byte>` (32 bytes of it), `keyfile:<path>` or `passphrase:<text>`, and prints each
/// step of the rotation as it comes (from inside its transaction), then `done`.
@main
enum SQLiteCrashWriter {
    /// The master key of the secret store of the transactions, which the test opens it with.
    static let masterKey = MasterKey.symmetric(SymmetricKey(data: Data(repeating: 0x2A, count: 32)))
    /// How many keys each transaction sets besides `latest`.
    static let keysPerTransaction = 4
    /// How many threads write at once in the `writers` mode.
    static let writerCount = 8

    static func main() {
        let arguments = CommandLine.arguments
        if arguments.count > 2, arguments[2] == "rotate" {
            guard arguments.count == 6, let old = masterKey(arguments[4]), let new = masterKey(arguments[5]) else {
                FileHandle.standardError.write(
                    Data("usage: ForgeSQLiteCrashWriter <database> rotate <ns> <old> <new>\n".utf8)
                )
                exit(2)
            }
            do {
                let database = SQLiteDatabase(fileURL: URL(fileURLWithPath: arguments[1]))
                try SQLiteCrypt(database: database, namespace: arguments[3], masterKey: old)
                    .rotateMasterKey(to: new) { acknowledge("\($0)") }
                acknowledge("done")
            } catch {
                FileHandle.standardError.write(Data("ForgeSQLiteCrashWriter: \(error)\n".utf8))
                exit(3)
            }
            return
        }
        guard
            arguments.count == 4 || (arguments.count == 5 && ["transactions", "writers"].contains(arguments[4])),
            let first = Int(arguments[3]),
            ["atomic", "flushed"].contains(arguments[2])
        else {
            let usage = "usage: ForgeSQLiteCrashWriter <database> <atomic|flushed> <first> [transactions|writers]\n"
            FileHandle.standardError.write(Data(usage.utf8))
            exit(2)
        }
        let database = SQLiteDatabase(fileURL: URL(fileURLWithPath: arguments[1]))
        let durability: Durability = arguments[2] == "flushed" ? .flushed : .atomic
        do {
            if arguments.count == 5, arguments[4] == "writers" {
                writeConcurrently(
                    from: first,
                    to: SQLiteKVStore(database: database, namespace: "crash", durability: durability)
                )
            } else if arguments.count == 5 {
                try writeTransactions(from: first, to: database, durability: durability)
            } else {
                try writeValues(
                    from: first,
                    to: SQLiteKVStore(database: database, namespace: "crash", durability: durability)
                )
            }
        } catch {
            FileHandle.standardError.write(Data("ForgeSQLiteCrashWriter: \(error)\n".utf8))
            exit(3)
        }
    }

    /// Sets values from ``writerCount`` threads at once, each its own keys, until the process is killed (or each
    /// thread wrote 100,000).
    private static func writeConcurrently(from first: Int, to store: SQLiteKVStore) {
        let group = DispatchGroup()
        for writer in 0..<writerCount {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    for number in first..<(first + 100_000) {
                        try store.set(KVKey<Int>("writer.\(writer).\(number)"), value: number)
                        acknowledge("\(writer):\(number)")
                    }
                } catch {
                    FileHandle.standardError.write(Data("ForgeSQLiteCrashWriter: \(error)\n".utf8))
                    exit(3)
                }
            }
            .start()
        }
        group.wait()
    }

    /// Sets and removes values one call at a time.
    private static func writeValues(from first: Int, to store: SQLiteKVStore) throws {
        for number in first..<(first + 100_000) {
            try store.set(KVKey<Int>("value.\(number)"), value: number)
            try store.set(KVKey<Int>("latest"), value: number)
            acknowledge("\(number)")
            if number % 10 == 0, number - 5 >= first {
                try store.remove(KVKey<Int>("value.\(number - 5)"))
                acknowledge("-\(number - 5)")
            }
        }
    }

    /// Writes and removes values, files and secrets, a transaction per number.
    private static func writeTransactions(from first: Int, to database: SQLiteDatabase, durability: Durability) throws {
        let settings = SQLiteKVStore(database: database, namespace: "crash", durability: durability)
        let files = SQLiteFileStore(database: database, namespace: "crash", durability: durability)
        let secrets = SQLiteCrypt(database: database, namespace: "crash", masterKey: masterKey, durability: durability)
        for number in first..<(first + 100_000) {
            let removes = number % 10 == 0 && number - 5 >= first
            try StorageTransaction.run { transaction in
                for index in 0..<keysPerTransaction {
                    try transaction.set(KVKey<Int>("transaction.\(number).\(index)"), value: number, in: settings)
                }
                try transaction.save(Data("\(number)".utf8), to: "transactions/\(number)", in: files)
                try transaction.set(number, for: CryptKey<Int>(key: "transaction.\(number)"), in: secrets)
                try transaction.set(KVKey<Int>("latest"), value: number, in: settings)
                guard removes else { return }
                for index in 0..<keysPerTransaction {
                    try transaction.remove(KVKey<Int>("transaction.\(number - 5).\(index)"), in: settings)
                }
                try transaction.delete("transactions/\(number - 5)", in: files)
                try transaction.delete(CryptKey<Int>(key: "transaction.\(number - 5)"), in: secrets)
            }
            acknowledge(removes ? "\(number)\n-\(number - 5)" : "\(number)")
        }
    }

    /// The master key `text` names: `symmetric:<byte>` (32 bytes of it), `keyfile:<path>` or `passphrase:<text>`.
    static func masterKey(_ text: String) -> MasterKey? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let value = String(text[text.index(after: colon)...])
        switch text[..<colon] {
        case "symmetric": return UInt8(value).map { .symmetric(SymmetricKey(data: Data(repeating: $0, count: 32))) }
        case "keyfile": return .keyFile(URL(fileURLWithPath: value))
        case "passphrase": return .passphrase(value)
        default: return nil
        }
    }

    /// Prints `line` on standard output in one system call.
    private static func acknowledge(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
