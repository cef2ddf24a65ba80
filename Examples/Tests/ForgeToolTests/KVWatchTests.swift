import ArgumentParser
import ForgeStorage
import Foundation
import TaskFlow
import Testing

@testable import forge

#if os(Linux)
/// Whether `forge kv watch` sees the writes of other store instances and processes: on Linux, through inotify.
private let otherWritersAreSeen = true
#else
private let otherWritersAreSeen = false
#endif

/// `forge kv watch`: the key's value, then each value another `forge kv set` stores, printed as it changes.
struct KVWatchTests {
    let key = TaskKeys.launchCount.key

    /// Runs `body` with the path of a data folder the demo made, in which `taskflow.launchCount` holds 1; removed
    /// afterwards.
    private func withDemoRoot(_ body: (String) async throws -> Void) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("forge-tool-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try await DemoCommand.parse(["--root", root.path]).run()
        try await body(root.path)
    }

    /// Ends `lines` after `seconds`, and runs `onTimeout`: a guard against a hang, not a wait.
    ///
    /// A line never printed then fails the test instead of hanging it (each later `next()` returns nil). Cancel the
    /// returned task once the lines came.
    private func watchdog(
        ending lines: AsyncStream<String>.Continuation,
        after seconds: Int,
        onTimeout: @escaping @Sendable () -> Void = {}
    ) -> Task<Void, Never> {
        Task {
            guard (try? await Task.sleep(for: .seconds(seconds))) != nil else { return }
            Issue.record("forge kv watch printed nothing for \(seconds) seconds")
            onTimeout()
            lines.finish()
        }
    }

    @Test func watchRefusesAnEmptyKeyAndACountBelowOne() async throws {
        try await withDemoRoot { root in
            var output = LineOutput(lines: AsyncStream<String>.makeStream().continuation)
            await #expect(throws: ForgeError.emptyKey) {
                try await KVCommand.Watch.parse(["--root", root, ""]).run(to: &output)
            }
            #expect(throws: (any Error).self) {
                try KVCommand.Watch.parse(["--root", root, key, "--count", "0"])
            }
        }
    }

    @Test(.enabled(if: otherWritersAreSeen, "the writes of other processes are seen on Linux only, for now"))
    func aValueSetAfterTheWatchStartedIsPrinted() async throws {
        try await withDemoRoot { root in
            let (lines, printer) = AsyncStream<String>.makeStream()
            let watch = Task {
                var output = LineOutput(lines: printer)
                try await KVCommand.Watch.parse(["--root", root, key, "--type", "int", "--count", "4"]).run(to: &output)
            }
            let watchdog = watchdog(ending: printer, after: 10) { watch.cancel() }
            defer { watchdog.cancel() }
            var printed = lines.makeAsyncIterator()

            #expect(await printed.next() == "\(key) = 1")
            // Set by a store of its own, as another process would: the watch's store sees it through the folder.
            try await KVCommand.SetValue.parse(["--root", root, key, "7"]).run()
            #expect(await printed.next() == "\(key) = 7")
            try await KVCommand.Remove.parse(["--root", root, key]).run()
            #expect(await printed.next() == "\(key) (no value)")
            try await KVCommand.SetValue.parse(["--root", root, key, "--string", "seven"]).run()
            let undecodable = await printed.next()
            #expect(undecodable?.hasPrefix("\(key) (error: The value stored for key '\(key)' does not decode") == true)
            try await watch.value
        }
    }

    @Test(.enabled(if: otherWritersAreSeen, "the writes of other processes are seen on Linux only, for now"))
    func aSetInAnotherProcessIsPrintedByTheWatchingProcess() async throws {
        let forge = try #require(Self.forgeExecutable(), "the forge executable was not built beside the tests")
        try await withDemoRoot { root in
            let watcher = Process()
            watcher.executableURL = forge
            watcher.arguments = ["kv", "watch", "--root", root, key, "--count", "2"]
            let pipe = Pipe()
            watcher.standardOutput = pipe
            let (exits, exited) = AsyncStream<Int32>.makeStream()
            watcher.terminationHandler = { exited.yield($0.terminationStatus) }
            try watcher.run()
            let lines = Self.lines(of: pipe.fileHandleForReading)
            let watchdog = watchdog(ending: lines.continuation, after: 20) { watcher.terminate() }
            defer { watchdog.cancel() }
            var printed = lines.stream.makeAsyncIterator()

            #expect(await printed.next() == "\(key) = 1")
            let setter = try await Self.run(forge, ["kv", "set", "--root", root, key, "9"])
            #expect(setter == 0)
            #expect(await printed.next() == "\(key) = 9")
            var exitStatus = exits.makeAsyncIterator()
            #expect(await exitStatus.next() == 0, "the watch ends after --count values")
        }
    }

    /// The `forge` executable SwiftPM built beside the tests.
    private static func forgeExecutable() -> URL? {
        var folders: [URL] = Bundle.allBundles
            .filter { $0.bundlePath.hasSuffix(".xctest") }
            .map { $0.bundleURL.deletingLastPathComponent() }
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        return folders.map { $0.appendingPathComponent("forge") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs `executable` with `arguments`, its output discarded, and returns its exit status.
    private static func run(_ executable: URL, _ arguments: [String]) async throws -> Int32 {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let (exits, exited) = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { exited.yield($0.terminationStatus) }
        try process.run()
        var status = exits.makeAsyncIterator()
        return await status.next() ?? -1
    }

    /// The lines read from `file`, as they are written, read on a thread of their own until the end of the file.
    private static func lines(
        of file: FileHandle
    ) -> (stream: AsyncStream<String>, continuation: AsyncStream<String>.Continuation) {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        Thread {
            var pending = Data()
            while case let data = file.availableData, !data.isEmpty {
                pending.append(data)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    continuation.yield(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                }
            }
            continuation.finish()
        }
        .start()
        return (stream, continuation)
    }
}

/// A ``CommandOutput`` that sends each line written to a stream, so a test can await what a running command
/// prints.
private struct LineOutput: CommandOutput {
    let lines: AsyncStream<String>.Continuation
    let isTerminal = false

    mutating func write(_ data: Data) {
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            lines.yield(String(line))
        }
    }
}
