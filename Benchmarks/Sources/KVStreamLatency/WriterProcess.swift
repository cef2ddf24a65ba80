import Foundation
import Synchronization

/// A running `KVStreamWriter`, told through its standard input which write to make next.
///
/// The writer makes one write per line it reads, so the reader asks for the next write only once it has observed
/// the last: each write is observed on its own, with no sleep between them. A writer that ends before it is told to
/// ends this process too, with its status, so a benchmark never waits for a value that cannot come.
final class WriterProcess {
    private let process = Process()
    private let input = Pipe()
    /// Set once ``finish()`` closes the writer's input: from then on its end is expected.
    private let finishing = Flag()

    /// Starts `executable` with `arguments`; it waits for its first request.
    init(executable: URL, arguments: [String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = input
        process.terminationHandler = { [finishing] process in
            guard !finishing.isSet else { return }
            let writer = "KVStreamWriter " + arguments.joined(separator: " ")
            FileHandle.standardError.write(Data("\(writer) ended early: status \(process.terminationStatus)\n".utf8))
            exit(1)
        }
        try process.run()
    }

    /// Asks the writer for write number `index`.
    func requestWrite(_ index: Int) throws {
        try input.fileHandleForWriting.write(contentsOf: Data("\(index)\n".utf8))
    }

    /// Closes the writer's input, which ends it, and waits until it has ended.
    ///
    /// Blocking: the writer ends as soon as it reads the end of its input, and nothing else runs meanwhile.
    func finish() throws {
        finishing.set()
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// A flag set once, read from the writer's termination handler.
private final class Flag: Sendable {
    private let value = Mutex(false)

    /// Whether ``set()`` was called.
    var isSet: Bool { value.withLock { $0 } }

    /// Sets the flag.
    func set() { value.withLock { $0 = true } }
}
