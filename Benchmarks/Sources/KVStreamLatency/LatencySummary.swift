import Foundation

/// The spread of one variant's latencies: fastest, median, 99th percentile, slowest.
struct LatencySummary {
    /// The fastest sample, in nanoseconds.
    let minimum: UInt64
    /// The median (50th percentile), in nanoseconds.
    let median: UInt64
    /// The 99th percentile, in nanoseconds: 1 sample in 100 took longer.
    let p99: UInt64
    /// The slowest sample, in nanoseconds.
    let maximum: UInt64

    /// Summarises `samples`, which must not be empty; percentiles by nearest rank.
    init(_ samples: [UInt64]) {
        let sorted = samples.sorted()
        func percentile(_ fraction: Double) -> UInt64 {
            let rank = Int((Double(sorted.count) * fraction).rounded(.up))
            return sorted[min(max(rank, 1), sorted.count) - 1]
        }
        minimum = sorted.first ?? 0
        median = percentile(0.5)
        p99 = percentile(0.99)
        maximum = sorted.last ?? 0
    }
}

/// `nanoseconds` as results.md writes times: ns, µs or ms with two decimals.
func formatTime(_ nanoseconds: UInt64) -> String {
    let value = Double(nanoseconds)
    if value >= 1_000_000 { return String(format: "%.2f ms", value / 1_000_000) }
    if value >= 1_000 { return String(format: "%.2f µs", value / 1_000) }
    return "\(nanoseconds) ns"
}
