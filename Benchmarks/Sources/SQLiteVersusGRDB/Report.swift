import Foundation

/// The runs' results as a Markdown table: each side's median time per operation, and its time over GRDB's, the
/// median over a run's rounds, for each run and the median of the runs.
struct Report {
    /// Each run's results, pairs in the same order.
    let runs: [[PairResult]]
    /// Both writers' settings, as read back.
    let settings: String

    /// The lines of the table for `results`, one run: a line per side.
    static func lines(for results: [PairResult]) -> [String] {
        results.flatMap { result in
            result.pair.sides.indices.map { index in
                "| \(result.pair.group) | \(result.pair.sides[index].name) | \(formatTime(result.median(index))) | "
                    + String(format: "%.2fx |", result.ratio(index))
            }
        }
    }

    /// The report, stamped with `machine` and `date`.
    func markdown(machine: String, date: String) -> String {
        guard let first = runs.first else { return "no runs" }
        let runHeaders = runs.indices.map { "run \($0 + 1)" }
        var lines = [
            "# The SQLite stores beside GRDB",
            "",
            "Written by `scripts/benchmarks` (Benchmarks' SQLiteVersusGRDB, \(runs.count) runs) on \(date), on \(machine).",
            "",
            "Each pair takes turns round by round in one process; a ratio is the median over a run's rounds of the side's",
            "time over GRDB's in the same round (below 1: faster than GRDB). GRDB's side is a `DatabasePool` with cached",
            "statements, a `WITHOUT ROWID` key-value table and a rowid table of files, written as GRDB's `upsert` writes",
            "(a row there is updated in place); both sides encode the same JSON, and every write changes the value or the",
            "file's bytes. \(settings).",
            "",
            "The DiskKVStore lifetimes rows compare folders of the same keys: the base (the last side) has no value with a",
            "lifetime, so its ratio column reads as the cost of one lifetime; the reclaim of 16 expired values compares a",
            "folder of 50,000 keys with one of 1,000.",
            "",
            "| operation | side | median time | " + runHeaders.map { "ratio, \($0)" }.joined(separator: " | ")
                + " | ratio to GRDB, or the base |",
            "| --- | --- | ---: | " + runHeaders.map { _ in "---:" }.joined(separator: " | ") + " | ---: |",
        ]
        for (pairIndex, result) in first.enumerated() {
            for side in result.pair.sides.indices {
                let perRun = runs.map { $0[pairIndex] }
                let time = perRun.map { $0.median(side) }.median
                let ratios = perRun.map { $0.ratio(side) }
                lines.append(
                    "| \(result.pair.group) | \(result.pair.sides[side].name) | \(formatTime(time)) | "
                        + ratios.map { String(format: "%.2fx", $0) }.joined(separator: " | ")
                        + String(format: " | **%.2fx** |", ratios.median)
                )
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Keeps `value` from being optimised away.
@inline(never)
func blackHole<Value>(_ value: Value) {
    withExtendedLifetime(value) {}
}
