import ForgeKVStore
import ForgePostgres
import Foundation
import Testing

/// Processes sharing one namespace: each sees every other's writes through its own stream.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresKVStoreProcessesTests {
    @Test func threeProcessesSharingANamespaceEachSeeTheOthersWrites() async throws {
        let executable = try #require(StreamPeer.executable(), "PostgresStreamPeer was not built beside the tests")
        let namespace = "test-\(UUID().uuidString)"
        let peers = try (0..<3).map { _ in try StreamPeer(executable: executable, namespace: namespace) }
        // A peer that stops printing is ended after 20 seconds, which ends its lines: the test fails, never hangs.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(20))
            for peer in peers { peer.stop() }
        }
        defer {
            watchdog.cancel()
            for peer in peers { peer.stop() }
        }
        var printed = peers.map { $0.lines.makeAsyncIterator() }
        for reader in peers.indices {
            #expect(await printed[reader].next() == "seen -", "process \(reader) did not start streaming")
        }

        // Each process writes in turn; the next write waits until every process has seen the last one, so no
        // stream may fold two writes into one.
        for writer in peers.indices {
            peers[writer].send("set from-\(writer)")
            for reader in peers.indices {
                let line = await printed[reader].next()
                #expect(line == "seen from-\(writer)", "process \(reader) missed the write of process \(writer)")
            }
        }
        try await TestServer.withClient { client in
            try await PostgresKVStore(client: client, namespace: namespace).removeAll()
        }
    }
}

/// A running `PostgresStreamPeer` process of the test server's namespace, for these tests and those of transactions'
/// streams: lines go to its input, and its printed lines come out of ``lines``, which ends when the process ends.
struct StreamPeer: Sendable {
    private let process: Process
    private let input: FileHandle
    /// The lines the peer prints.
    let lines: AsyncStream<String>

    /// Starts the peer on `namespace` of the test server.
    init(executable: URL, namespace: String) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = [namespace]
        let (input, output) = (Pipe(), Pipe())
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        self.process = process
        self.input = input.fileHandleForWriting
        self.lines = Self.lines(of: output.fileHandleForReading)
    }

    /// Writes `line` to the peer's input.
    func send(_ line: String) {
        input.write(Data((line + "\n").utf8))
    }

    /// Ends the peer.
    func stop() {
        if process.isRunning { process.terminate() }
    }

    /// The `PostgresStreamPeer` executable SwiftPM built beside the tests.
    static func executable() -> URL? {
        var folders: [URL] = Bundle.allBundles
            .filter { $0.bundlePath.hasSuffix(".xctest") }
            .map { $0.bundleURL.deletingLastPathComponent() }
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        return folders.map { $0.appendingPathComponent("PostgresStreamPeer") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// The lines written to `file`, read on a thread of their own until the end of the file.
    private static func lines(of file: FileHandle) -> AsyncStream<String> {
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
        return stream
    }
}
