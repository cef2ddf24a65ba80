import BenchmarkSupport
import ForgeSQLite
import Foundation

// The SQLite stores beside GRDB, the way GRDB's maintainers would write GRDB's side (GRDBPeer: a DatabasePool, a
// WITHOUT ROWID key-value table, cached statements, `read` and `write`), and beside DiskKVStore at the same
// durability. Each pair takes turns round by round in this one process, so that a noisy stretch of a shared machine
// falls on both sides; each ratio is the median over the rounds of ours over GRDB's time in the same round. Both
// sides are called from the main actor as a user calls them: the key-value stores and GRDB synchronously (the
// stores' synchronous API, GRDB's `read` and `write`), the file store awaited (its only form; it runs on the caller's
// actor) beside GRDB's synchronous calls, its fastest. Both encode and decode the same Profile with the library's
// JSON settings.
//
// Both writers' journal mode and `synchronous` level are read back and printed before anything is timed, and a
// setting that is not the one compared, or a setup that fails, fails the run. Not a harness benchmark: the harness
// runs one benchmark after another, and these pairs must be interleaved. Usage:
//
//     swift run -c release SQLiteVersusGRDB [--runs N] [--output FILE.md] [--only OPERATION]
//
// Then DiskKVStore's lifetimes (DiskLifetimesFixture): keys(), contains and reclaims in folders of 1,000 to 50,000
// keys with one value with a lifetime, beside the same folders without one.
//
// It prints a table; with --output it writes it, with the machine and date, to FILE.md (scripts/benchmarks writes
// Benchmarks/Results/sqlite-vs-grdb.md).

@main
struct SQLiteVersusGRDB {
    @MainActor
    static func main() async {
        do {
            try await run(Options(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("SQLiteVersusGRDB failed: \(error)\n".utf8))
            exit(1)
        }
    }

    @MainActor
    private static func run(_ options: Options) async throws {
        var runs: [[PairResult]] = []
        var settings = ""
        for run in 1...options.runs {
            print("Run \(run) of \(options.runs)")
            let fixture = try SQLiteFixture(folder: Scratch.folder("sqlite-versus-grdb"))
            settings = try fixture.checkedSettings()
            print(settings)
            // Its folders take seconds to write: only when one of its pairs runs.
            let lifetimes =
                try options.only.map(DiskLifetimesFixture.mayRun(prefix:)) ?? true
                ? DiskLifetimesFixture(folder: Scratch.folder("disk-lifetimes")).pairs() : []
            var results: [PairResult] = []
            for pair in fixture.pairs() + lifetimes where options.only.map(pair.group.hasPrefix) ?? true {
                let result = try await pair.measure(only: options.side)
                print(Report.lines(for: [result]).joined(separator: "\n"))
                results.append(result)
            }
            runs.append(results)
            try fixture.close()
        }
        let report = Report(runs: runs, settings: settings)
        print(report.markdown(machine: options.machine, date: options.date))
        if let output = options.output {
            try report.markdown(machine: options.machine, date: options.date)
                .write(toFile: output, atomically: true, encoding: .utf8)
        }
    }
}

/// The command line: `--runs N` (default 3), `--output FILE`, `--machine TEXT`, `--date TEXT`, `--only TEXT`, `--side NAME`.
private struct Options {
    var runs = 3
    var output: String?
    var machine = ProcessInfo.processInfo.operatingSystemVersionString
    var date = ISO8601DateFormatter().string(from: Date())
    /// Only the pairs whose operation starts with this text, and only the side of this name, for a profiler.
    var only: String?
    var side: String?

    init(_ arguments: ArraySlice<String>) throws {
        var arguments = arguments
        while let option = arguments.popFirst() {
            guard let value = arguments.popFirst() else { throw UsageError() }
            switch option {
            case "--runs":
                guard let count = Int(value), count > 0 else { throw UsageError() }
                runs = count
            case "--output": output = value
            case "--machine": machine = value
            case "--date": date = value
            case "--only": only = value
            case "--side": side = value
            default: throw UsageError()
            }
        }
    }
}

/// A command line this program does not take.
private struct UsageError: Error, CustomStringConvertible {
    var description: String {
        "usage: SQLiteVersusGRDB [--runs N] [--output FILE.md] [--machine TEXT] [--date TEXT] [--only OPERATION] [--side NAME]"
    }
}
