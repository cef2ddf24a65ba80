@testable import ForgeSQLiteCrashWriter
import ForgeSQLite
import Foundation
import Testing

/// The transactions `ForgeSQLiteCrashWriter … transactions` left in a database: the numbers whose keys, file and
/// secret are all there, and those of which only some are.
struct CrashTransactions {
    /// The numbers whose every key, file and secret is there.
    let whole: Set<Int>
    /// The numbers of which some keys, the file or the secret are there, and not all.
    let partial: Set<Int>
    /// The value of `latest`.
    let latest: Int?

    private let settings: SQLiteKVStore
    private let files: SQLiteFileStore
    private let secrets: SQLiteCrypt

    /// Reads what the writer left in `file`, through stores of a database of its own.
    init(_ file: URL) throws {
        let database = SQLiteDatabase(fileURL: file)
        settings = SQLiteKVStore(database: database, namespace: "crash")
        files = SQLiteFileStore(database: database, namespace: "crash")
        secrets = SQLiteCrypt(database: database, namespace: "crash", masterKey: SQLiteCrashWriter.masterKey)
        latest = try settings.value(for: KVKey<Int>("latest"))
        var keyCounts: [Int: Int] = [:]
        for key in try settings.keys() {
            let parts = key.split(separator: ".")
            if parts.count == 3, parts[0] == "transaction", let number = Int(parts[1]) {
                keyCounts[number, default: 0] += 1
            }
        }
        let fileNumbers = try Self.numbers(in: files.allFiles().map(\.path), after: "transactions/")
        let secretNumbers = try Self.numbers(in: secrets.keys(), after: "transaction.")
        let all = Set(keyCounts.keys).union(fileNumbers).union(secretNumbers)
        whole = all.filter { number in
            keyCounts[number] == SQLiteCrashWriter.keysPerTransaction && fileNumbers.contains(number)
                && secretNumbers.contains(number)
        }
        partial = all.subtracting(whole)
    }

    /// Expects the keys, file and secret of `number` to hold `number`.
    func expectContents(of number: Int, _ context: String) throws {
        guard whole.contains(number) else { return }
        for index in 0..<SQLiteCrashWriter.keysPerTransaction {
            #expect(try settings.value(for: KVKey<Int>("transaction.\(number).\(index)")) == number, "\(context)")
        }
        #expect(try files.contents(at: StoredFilePath(validating: "transactions/\(number)")) == Data("\(number)".utf8))
        #expect(try secrets.get(CryptKey<Int>(key: "transaction.\(number)")) == number, "\(context)")
    }

    /// The numbers that follow `prefix` in `names`.
    private static func numbers(in names: [String], after prefix: String) -> Set<Int> {
        Set(names.compactMap { $0.hasPrefix(prefix) ? Int($0.dropFirst(prefix.count)) : nil })
    }
}
