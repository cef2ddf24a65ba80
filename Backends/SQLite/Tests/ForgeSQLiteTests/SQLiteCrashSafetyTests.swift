import ForgeSQLite
import Foundation
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A `ForgeSQLiteCrashWriter` child is SIGKILLed while it writes to a `SQLiteKVStore`, again and again: every write
/// and remove it acknowledged is in the database, which opens, for both durabilities (`.atomic` commits are not
/// flushed, but a process crash loses nothing the system already has).
struct SQLiteCrashSafetyTests {
    @Test(arguments: ["atomic", "flushed"])
    func everyAcknowledgedWriteSurvivesSIGKILL(_ durability: String) async throws {
        let writer = try #require(Self.writerURL(), "ForgeSQLiteCrashWriter was not built beside the tests")
        let iterations = ProcessInfo.processInfo.environment["FORGE_CRASH_ITERATIONS"].flatMap { Int($0) } ?? 20
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            var present = Set<Int>()
            var removed = Set<Int>()
            var next = 0
            for iteration in 0..<iterations {
                // The kill comes after a number of acknowledgements that changes each time; nothing waits on a clock.
                let acknowledgementsBeforeKill = 1 + (iteration * 37) % 300
                let arguments = [file.path, durability, String(next)]
                let (lines, wasKilled) = try await onOwnThread {
                    try Self.runAndKill(writer, arguments, after: acknowledgementsBeforeKill)
                }
                #expect(wasKilled, "\(durability), kill \(iteration): the writer exited by itself")
                for line in lines {
                    if line.hasPrefix("-"), let number = Int(line.dropFirst()) {
                        present.remove(number)
                        removed.insert(number)
                    } else if let number = Int(line) {
                        present.insert(number)
                    }
                }
                let context = "\(durability), kill \(iteration)"
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
                next = max(newest, latest) + 2
            }
        }
    }

    /// Runs `writer` with `arguments`, SIGKILLs it once it acknowledged `count` writes, and returns every line it
    /// printed before it died, and whether the kill ended it.
    private static func runAndKill(
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
    private static func writerURL() -> URL? {
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
