import BenchmarkSupport
import ForgeKVStore
import Foundation

// Cross-process latency: how long after a write in one process its value arrives in another process's stream.
//
// `KVStreamWriter` children each write a `LatencyStamp` (the monotonic clock, read just before the write) when this
// process asks, through their standard input. *ours*: the child sets a key of a `DiskKVStore`, and this process
// awaits the value in a `ReactiveKVStore` stream of that key over the same folder (its inotify watch). *limit*: the
// child writes a temporary file and renames it over the value's file (`Limit.writeAtomically`), and this process
// waits in a blocking `read` of an inotify descriptor on the folder, then reads and decodes the file. *limit
// awaited*: the same write, the descriptor read by a dispatch source that hands each rename to the waiting task
// through an `AsyncStream`: the thread hops an async observer makes, without the library's work. Each latency is
// this process's clock when it holds the value, less the stamp. The variants take turns, one write each, and the
// next write is asked for only once the last was observed.
//
// Not a harness benchmark: the time measured is made in another process, and the turns keep each ratio within one
// stretch of a noisy machine. Usage:
//
//     swift run -c release KVStreamLatency [--samples N] [--warmup N] [--output FILE.csv]
//
// It prints a table like results.md's; with --output it also writes every sample (scripts/benchmarks keeps them in
// Benchmarks/Results/raw/ and benchmarks-report.py adds them to results.md).

@main
struct KVStreamLatency {
    /// The benchmark's group, as in results.md.
    static let group = "kv.reactive.crossprocess"
    /// The variants, in the order of the table.
    static let variants = ["ours", "limit", "limit awaited"]

    static func main() async throws {
        #if canImport(Glibc)
        let options = try Options(CommandLine.arguments.dropFirst())
        let writer = try writerExecutable()
        let samples = try await measure(writer: writer, samples: options.samples, warmup: options.warmup)
        print(table(samples, count: options.samples))
        if let output = options.output {
            try csv(samples).write(toFile: output, atomically: true, encoding: .utf8)
        }
        #else
        print("KVStreamLatency measures inotify notifications: Linux only.")
        #endif
    }

    /// `KVStreamWriter`, built beside this executable.
    private static func writerExecutable() throws -> URL {
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let writer = executable.resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("KVStreamWriter")
        guard FileManager.default.isExecutableFile(atPath: writer.path) else {
            throw LatencyError.writerMissing(writer.path)
        }
        return writer
    }

    #if canImport(Glibc)
    /// Measures `samples` latencies of each variant, taking turns, after `warmup` turns not kept.
    ///
    /// Nonisolated, so the streams are consumed by a task on the cooperative pool, as a server's would be; the
    /// limit's blocking `read` holds one of the pool's threads while it waits, which nothing else needs here.
    private static func measure(writer: URL, samples: Int, warmup: Int) async throws -> [String: [UInt64]] {
        // Ours: a ReactiveKVStore stream of a DiskKVStore key, written by a child's DiskKVStore.
        let oursFolder = Scratch.folder("kv-stream-latency")
        let namespace = "ours"
        let key = KVKey<LatencyStamp>("stamp")
        let reactive = ReactiveKVStore(DiskKVStore(directory: .custom(oursFolder), namespace: namespace))
        var stamps = reactive.stream(key).makeAsyncIterator()
        _ = await stamps.next()  // the current value: nil in the fresh folder
        let ours = try WriterProcess(executable: writer, arguments: ["ours", oursFolder.path, namespace, key.key])

        // The limit: a child's raw atomic write, heard by a blocking inotify read on a folder of its own.
        let limitFolder = Scratch.folder("kv-stream-latency-limit").path
        guard let limitWatch = RenameWatch(folder: limitFolder, fileName: "stamp.json") else {
            throw LatencyError.noWatch(limitFolder)
        }
        let limit = try WriterProcess(executable: writer, arguments: ["limit", limitFolder + "/stamp.json"])

        // The limit awaited: the same write, heard through a dispatch source and an AsyncStream.
        let awaitedFolder = Scratch.folder("kv-stream-latency-awaited").path
        guard let awaitedWatch = StreamedRenameWatch(folder: awaitedFolder, fileName: "stamp.json") else {
            throw LatencyError.noWatch(awaitedFolder)
        }
        var renames = awaitedWatch.renames.makeAsyncIterator()
        let awaited = try WriterProcess(executable: writer, arguments: ["limit", awaitedFolder + "/stamp.json"])

        var latencies: [String: [UInt64]] = [:]
        for index in 0..<(warmup + samples) {
            try ours.requestWrite(index)
            let oursLatency = try await latency(of: index) {
                guard let next = await stamps.next() else { throw LatencyError.streamEnded }
                return next
            }

            try limit.requestWrite(index)
            let limitLatency = try await latency(of: index) {
                guard limitWatch.waitForRename() else { throw LatencyError.noWatch(limitFolder) }
                return readStamp(atPath: limitFolder + "/stamp.json")
            }

            try awaited.requestWrite(index)
            let awaitedLatency = try await latency(of: index) {
                guard await renames.next() != nil else { throw LatencyError.streamEnded }
                return readStamp(atPath: awaitedFolder + "/stamp.json")
            }

            guard index >= warmup else { continue }
            latencies["ours", default: []].append(oursLatency)
            latencies["limit", default: []].append(limitLatency)
            latencies["limit awaited", default: []].append(awaitedLatency)
        }
        for process in [ours, limit, awaited] { try process.finish() }
        withExtendedLifetime((reactive, awaitedWatch)) {}
        return latencies
    }

    /// Waits for the stamp of write `index`, taking each value `next` observes, and returns its latency: the clock
    /// when it arrived less the stamp.
    private static func latency(
        of index: Int,
        _ next: () async throws -> LatencyStamp?
    ) async throws -> UInt64 {
        while true {
            let stamp = try await next()
            let received = MonotonicClock.nanoseconds()
            if let stamp, stamp.index == index { return received - stamp.sent }
        }
    }

    /// The stamp in the file at `path`, read and decoded as the limit reads a value.
    private static func readStamp(atPath path: String) -> LatencyStamp? {
        Limit.readFile(atPath: path).flatMap { try? Codec.decoder.decode(LatencyStamp.self, from: $0) }
    }
    #endif

    /// The figures as a Markdown table in results.md's style: ours beside the limit, and the ratios.
    private static func table(_ latencies: [String: [UInt64]], count: Int) -> String {
        guard let limit = latencies["limit"], !limit.isEmpty else { return "no samples" }
        let base = LatencySummary(limit)
        let summaries = variants.compactMap { variant in
            latencies[variant].flatMap { $0.isEmpty ? nil : (variant, LatencySummary($0)) }
        }
        var lines = [
            "Cross-process latency, \(count) writes of each variant taking turns: from just before the write in the",
            "writing process to the value in the observing process.",
            "",
            "| operation | variant | median | p99 | min | max | ratio | p99 ratio |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for (variant, summary) in summaries {
            let ratio = Double(summary.median) / Double(base.median)
            let p99Ratio = Double(summary.p99) / Double(base.p99)
            lines.append(
                "| \(group) | \(variant) | \(formatTime(summary.median)) | \(formatTime(summary.p99)) | "
                    + "\(formatTime(summary.minimum)) | \(formatTime(summary.maximum)) | "
                    + String(format: "%.2fx | %.2fx |", ratio, p99Ratio)
            )
        }
        return lines.joined(separator: "\n")
    }

    /// Every sample, a line per turn: its number, then each variant's latency in nanoseconds, in columns named
    /// `group:variant`.
    private static func csv(_ latencies: [String: [UInt64]]) -> String {
        var lines = [(["sample"] + variants.map { "\(group):\($0)" }).joined(separator: ",")]
        let turns = variants.map { latencies[$0]?.count ?? 0 }.min() ?? 0
        for turn in 0..<turns {
            lines.append(([String(turn)] + variants.map { String(latencies[$0]?[turn] ?? 0) }).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The command line: `--samples N` (default 5,000), `--warmup N` (default 200), `--output FILE`.
private struct Options {
    var samples = 5_000
    var warmup = 200
    var output: String?

    init(_ arguments: ArraySlice<String>) throws {
        var arguments = arguments
        while let option = arguments.popFirst() {
            guard let value = arguments.popFirst() else { throw LatencyError.usage }
            switch option {
            case "--samples":
                guard let count = Int(value), count > 0 else { throw LatencyError.usage }
                samples = count
            case "--warmup":
                guard let count = Int(value), count >= 0 else { throw LatencyError.usage }
                warmup = count
            case "--output":
                output = value
            default:
                throw LatencyError.usage
            }
        }
    }
}

/// Why the benchmark could not run.
private enum LatencyError: Error, CustomStringConvertible {
    case usage
    case writerMissing(String)
    case noWatch(String)
    case streamEnded

    var description: String {
        switch self {
        case .usage:
            "usage: KVStreamLatency [--samples N] [--warmup N] [--output FILE.csv]"
        case .writerMissing(let path):
            "no KVStreamWriter at \(path): build it first (swift build -c release --product KVStreamWriter)"
        case .noWatch(let path):
            "could not watch or read the inotify watch of \(path)"
        case .streamEnded:
            "the stream ended before its value arrived"
        }
    }
}
