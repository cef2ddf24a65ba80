import BenchmarkSupport
import Foundation

/// One operation timed on each side of a comparison, the sides taking turns round by round.
struct Pair {
    /// The operation's name, as the table shows it.
    let group: String
    /// The operations each side runs per round.
    let batch: Int
    /// How many rounds each side runs.
    let rounds: Int
    /// How many store operations one call of a side's ``Side/operation`` makes (the writers' pairs make many).
    var operationsPerCall = 1
    /// The sides; the last is the base of every ratio (GRDB).
    let sides: [Side]
}

/// One side of a ``Pair``.
struct Side {
    /// The side's name, as the table shows it.
    let name: String
    /// Runs before each operation, not timed: another connection's write, a table refilled.
    var prepare: (@MainActor () throws -> Void)? = nil
    /// The operation timed, as its users call it: synchronously, or awaited.
    let operation: Operation

    /// An operation called synchronously or awaited.
    enum Operation {
        case sync(@MainActor () throws -> Void)
        case async(@MainActor () async throws -> Void)
    }

    /// A side whose operation is called synchronously.
    init(
        name: String,
        prepare: (@MainActor () throws -> Void)? = nil,
        _ operation: @escaping @MainActor () throws -> Void
    ) {
        self.name = name
        self.prepare = prepare
        self.operation = .sync(operation)
    }

    /// A side whose operation is awaited (on the main actor, as an app's code awaits it).
    init(name: String, awaiting operation: @escaping @MainActor () async throws -> Void) {
        self.name = name
        self.prepare = nil
        self.operation = .async(operation)
    }

    /// Runs the operation once.
    @MainActor
    func run() async throws {
        switch operation {
        case .sync(let body): try body()
        case .async(let body): try await body()
        }
    }
}

/// What one ``Pair`` measured: each side's time per operation in each round.
struct PairResult {
    let pair: Pair
    /// Per side (as ``Pair/sides``), the nanoseconds per operation of each round.
    let nanoseconds: [[Double]]

    /// The median time per operation of side `index`.
    func median(_ index: Int) -> Double { nanoseconds[index].median }

    /// The median over the rounds of side `index`'s time over the base side's time in the same round.
    func ratio(_ index: Int) -> Double {
        guard let base = nanoseconds.last else { return .nan }
        return zip(nanoseconds[index], base).map { $0 / $1 }.median
    }
}

extension Pair {
    /// Runs the pair, the sides taking turns round by round.
    ///
    /// In each round every side runs ``batch`` operations, the side that goes first turning with the round, so that a
    /// slow stretch of a shared machine falls on every side alike. With `only`, only the side of
    /// that name runs (for a profiler; the others' times are then 1).
    @MainActor
    func measure(only: String? = nil) async throws -> PairResult {
        var nanoseconds = Array(repeating: [Double](), count: sides.count)
        // One warm-up round, not kept: the statements prepared, the caches and the pages read in.
        for round in -1..<rounds {
            for turn in 0..<sides.count {
                let index = (turn + max(round, 0)) % sides.count
                guard only.map({ $0 == sides[index].name }) ?? true else {
                    if round >= 0 { nanoseconds[index].append(1) }
                    continue
                }
                let elapsed = try await time(sides[index])
                if round >= 0 {
                    nanoseconds[index].append(Double(elapsed) / Double(batch * operationsPerCall))
                }
            }
        }
        return PairResult(pair: self, nanoseconds: nanoseconds)
    }

    /// The nanoseconds `side` takes for ``batch`` operations, its preparations left out.
    @MainActor
    private func time(_ side: Side) async throws -> UInt64 {
        guard let prepare = side.prepare else {
            let start = MonotonicClock.nanoseconds()
            for _ in 0..<batch { try await side.run() }
            return MonotonicClock.nanoseconds() - start
        }
        var total: UInt64 = 0
        for _ in 0..<batch {
            try prepare()
            let start = MonotonicClock.nanoseconds()
            try await side.run()
            total += MonotonicClock.nanoseconds() - start
        }
        return total
    }
}

extension Array where Element == Double {
    /// The middle value (the mean of the two middle ones for an even count); NaN when empty.
    var median: Double {
        guard !isEmpty else { return .nan }
        let sorted = self.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }
}

/// `nanoseconds` as results.md writes times: ns, µs or ms with two decimals.
func formatTime(_ nanoseconds: Double) -> String {
    if nanoseconds >= 1_000_000 { return String(format: "%.2f ms", nanoseconds / 1_000_000) }
    if nanoseconds >= 1_000 { return String(format: "%.2f µs", nanoseconds / 1_000) }
    return String(format: "%.0f ns", nanoseconds)
}
