import Benchmark
import Foundation

/// Fresh folders under the temporary directory, one per benchmark group.
public enum Scratch {
    /// The root of every scratch folder; `scripts/benchmarks` removes it after a run.
    public static let root = FileManager.default.temporaryDirectory
        .appendingPathComponent("forge-storage-benchmarks", isDirectory: true)

    /// An empty folder named `name`, created anew.
    public static func folder(_ name: String) -> URL {
        let url = root.appendingPathComponent(name, isDirectory: true)
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

extension Benchmark.Configuration {
    /// Wall-clock time and allocations, in nanoseconds, for about a second or `maxIterations` samples.
    public static func forge(
        scaling: BenchmarkScalingFactor = .one,
        maxIterations: Int = 5_000,
        seconds: Int64 = 1
    ) -> Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .mallocCountTotal],
            timeUnits: .nanoseconds,
            warmupIterations: 5,
            scalingFactor: scaling,
            maxDuration: .seconds(seconds),
            maxIterations: maxIterations
        )
    }
}
