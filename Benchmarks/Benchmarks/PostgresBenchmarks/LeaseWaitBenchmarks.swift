import Benchmark
import BenchmarkSupport

// The largest cost of the store's path beside the limit, alone: `limit.leaseWait` is the limit's read or write leased
// the way the store leases (ForgePostgres' ConnectionLease): the lease and the statement in a task of their own, so
// that the caller's cancellation does not reach a started statement, awaited by a child task of a task group, raced
// against a sleep of the store's connection wait in another. Beside `limit` it is what that costs;
// beside `ours`, what the rest of the store's path costs (preparation check, key forms, JSON coders, migrations).

/// Registers `limit.leaseWait` in the get and set groups.
func leaseWaitBenchmarks(_ fixture: PostgresFixture, configuration: Benchmark.Configuration) {
    let store = fixture.store
    let raw = fixture.raw
    Benchmark("postgres.kv.get:limit.leaseWait", configuration: configuration) { benchmark in
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await withLeaseWait(store.connectionWait) { try await raw.get() })
        }
        benchmark.stopMeasurement()
    }
    Benchmark("postgres.kv.set:limit.leaseWait", configuration: configuration) { benchmark in
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            try await withLeaseWait(store.connectionWait) { try await raw.set(.sample) }
        }
        benchmark.stopMeasurement()
    }
}

/// `body` in a task of its own, raced against a sleep of `wait` in a task group, as `ConnectionLease` races its lease.
private func withLeaseWait<Result: Sendable>(
    _ wait: Duration,
    _ body: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    let call = Task { try await body() }
    return try await withThrowingTaskGroup(of: Result?.self) { group in
        group.addTask { try await call.value }
        group.addTask {
            try await Task.sleep(for: wait)
            return nil
        }
        while let outcome = try await group.next() {
            if let result = outcome {
                group.cancelAll()
                return result
            }
            throw CancellationError()
        }
        throw CancellationError()
    }
}
