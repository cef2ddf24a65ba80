import ForgeSQLite
import Foundation
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A `ForgeSQLiteCrashWriter` child is SIGKILLed while it writes to the SQLite stores, again and again: every write
/// and remove it acknowledged is in the database, which opens, for both durabilities (`.atomic` commits are not
/// flushed, but a process crash loses nothing the system already has); every transaction it acknowledged is there
/// whole, and no transaction is there in part.
struct SQLiteCrashSafetyTests {
    @Test(arguments: ["atomic", "flushed"])
    func everyAcknowledgedWriteSurvivesSIGKILL(_ durability: String) async throws {
        var present = Set<Int>()
        var removed = Set<Int>()
        try await Self.killRepeatedly([durability]) { lines, file, context in
            Self.record(lines, present: &present, removed: &removed)
            let database = SQLiteDatabase(fileURL: file)
            try database.prepare()
            let store = SQLiteKVStore(database: database, namespace: "crash")
            for number in present {
                let value = try store.value(for: KVKey<Int>("value.\(number)"))
                // The remove that follows the write of `number + 5` may have committed without being acknowledged.
                if value == nil, (number + 5) % 10 == 0, present.contains(number + 5) {
                    present.remove(number)
                    removed.insert(number)
                    continue
                }
                #expect(value == number, "\(context): \(number)")
            }
            for number in removed {
                #expect(try store.value(for: KVKey<Int>("value.\(number)")) == nil, "\(context): -\(number)")
            }
            let newest = present.union(removed).max() ?? -1
            let latest = try store.value(for: KVKey<Int>("latest")) ?? -1
            #expect(latest >= newest, "\(context): latest is \(latest), \(newest) was acknowledged")
            // A write may have committed without being acknowledged: the next run starts past it.
            return max(newest, latest) + 2
        }
    }

    @Test(arguments: ["atomic", "flushed"])
    func everyAcknowledgedTransactionSurvivesSIGKILLWholeAndNoneInPart(_ durability: String) async throws {
        var acknowledged = Set<Int>()
        var removed = Set<Int>()
        var runStarts = [0]
        try await Self.killRepeatedly([durability, "transactions"]) { lines, file, context in
            Self.record(lines, present: &acknowledged, removed: &removed)
            let found = try CrashTransactions(file)
            let removes = { (number: Int) in number % 10 == 0 && number - 5 >= (runStarts.last { $0 <= number } ?? 0) }
            // The last transaction may have committed without being acknowledged, with its removal.
            if let latest = found.latest, !acknowledged.contains(latest), removes(latest) {
                acknowledged.remove(latest - 5)
                removed.insert(latest - 5)
            }
            #expect(found.partial.isEmpty, "\(context): transactions found in part: \(found.partial.sorted())")
            #expect(acknowledged.isSubset(of: found.whole), "\(context): \(acknowledged.subtracting(found.whole))")
            #expect(found.whole.isDisjoint(with: removed), "\(context): \(found.whole.intersection(removed))")
            // A transaction that removes the number 5 below its own is whole with its removal: that number is gone.
            for number in found.whole where removes(number) {
                #expect(!found.whole.contains(number - 5), "\(context): \(number) is there, and \(number - 5) too")
            }
            for number in lines.compactMap(Int.init) where number >= 0 {
                try found.expectContents(of: number, context)
            }
            let latest = try #require(found.latest, "\(context): latest is missing")
            #expect(found.whole.contains(latest), "\(context): latest is \(latest), whose transaction is not there")
            #expect(latest >= (acknowledged.max() ?? -1), "\(context): latest is \(latest)")
            // The transaction of `latest` is the last one that committed, acknowledged or not.
            runStarts.append(latest + 1)
            return latest + 1
        }
    }

    /// Eight threads of the writer set keys at once, their writes committed together: every write acknowledged to any
    /// of them is there.
    @Test(arguments: ["atomic", "flushed"])
    func everyWriteAcknowledgedToConcurrentWritersSurvivesSIGKILL(_ durability: String) async throws {
        var acknowledged: [(writer: Int, number: Int)] = []
        try await Self.killRepeatedly([durability, "writers"]) { lines, file, context in
            let pairs = lines.compactMap { line -> (writer: Int, number: Int)? in
                let parts = line.split(separator: ":")
                guard parts.count == 2, let writer = Int(parts[0]), let number = Int(parts[1]) else { return nil }
                return (writer, number)
            }
            #expect(pairs.count == lines.count, "\(context): lines that are no acknowledgement")
            acknowledged += pairs
            let store = SQLiteKVStore(database: SQLiteDatabase(fileURL: file), namespace: "crash")
            for (writer, number) in acknowledged {
                #expect(
                    try store.value(for: KVKey<Int>("writer.\(writer).\(number)")) == number,
                    "\(context): \(writer):\(number)"
                )
            }
            // Writes may have committed unacknowledged: the next run's numbers start past every one written.
            let written = try store.keys().compactMap { $0.split(separator: ".").last.flatMap { Int($0) } }
            return (written.max() ?? -1) + 1
        }
    }

    /// Records the acknowledgements of `lines`: a number written is present, a number removed (`-n`) is not.
    private static func record(_ lines: [String], present: inout Set<Int>, removed: inout Set<Int>) {
        for line in lines {
            if line.hasPrefix("-"), let number = Int(line.dropFirst()) {
                present.remove(number)
                removed.insert(number)
            } else if let number = Int(line) {
                present.insert(number)
            }
        }
    }

    /// Runs the crash writer again and again on one database file, each time with `mode` and the number `check`
    /// returned last (0 at first), killed after a number of acknowledgements that changes each time; after each kill,
    /// `check` gets the lines the writer printed, the file, and a context for expectations, and checks the database.
    ///
    /// The kills are `FORGE_CRASH_ITERATIONS` (20 by default). Nothing waits on a clock.
    private static func killRepeatedly(
        _ mode: [String],
        check: (_ lines: [String], _ file: URL, _ context: String) throws -> Int
    ) async throws {
        let writer = try #require(Self.writerURL(), "ForgeSQLiteCrashWriter was not built beside the tests")
        let iterations = ProcessInfo.processInfo.environment["FORGE_CRASH_ITERATIONS"].flatMap { Int($0) } ?? 20
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            var next = 0
            for iteration in 0..<iterations {
                let acknowledgementsBeforeKill = 1 + (iteration * 37) % 300
                let arguments = [file.path, mode[0], String(next)] + mode.dropFirst()
                let (lines, wasKilled) = try await onOwnThread {
                    try Self.runAndKill(writer, arguments, after: acknowledgementsBeforeKill)
                }
                let context = "\(mode.joined(separator: " ")), kill \(iteration)"
                #expect(wasKilled, "\(context): the writer exited by itself")
                next = try check(lines, file, context)
            }
        }
    }

    /// Runs `writer` with `arguments`, SIGKILLs it once it acknowledged `count` writes, and returns every line it
    /// printed before it died, and whether the kill ended it.
    static func runAndKill(
        _ writer: URL,
        _ arguments: [String],
        after count: Int
    ) throws -> (lines: [String], wasKilled: Bool) {
        let process = Process()
        process.executableURL = writer
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var data = Data()
        while data.count(where: { $0 == UInt8(ascii: "\n") }) < count {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            data.append(chunk)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        data.append(output.fileHandleForReading.readDataToEndOfFile())
        // A line cut by the kill is not an acknowledgement.
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
            .dropLast(data.last == UInt8(ascii: "\n") ? 0 : 1).map(String.init)
        return (lines, process.terminationReason == .uncaughtSignal)
    }

    /// The crash writer, built beside the test bundle.
    static func writerURL() -> URL? {
        var folders: [URL] = Bundle.allBundles
            .filter { $0.bundlePath.hasSuffix(".xctest") }
            .map { $0.bundleURL.deletingLastPathComponent() }
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        return folders.map { $0.appendingPathComponent("ForgeSQLiteCrashWriter") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}

/// Runs `body` on a thread of its own, so that its waits hold no thread of the pool the other tests run on.
func onOwnThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Swift.Result { try body() }) }.start()
    }
}
