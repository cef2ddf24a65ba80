import Benchmark
import BenchmarkSupport
import ForgeKVStore
import Foundation

// PostgreSQL: PostgresKVStore's get, set and stream beside the limit (postgres-nio sending the store's SQL on a leased
// connection of the same client, with the library's JSON settings) and beside a DiskKVStore, all against the server
// FORGE_POSTGRES_URL names (scripts/postgres-for-tests starts one on the loopback). Names are `group:variant`;
// scripts/benchmarks divides each variant by the group's `limit`. Every variant is an async benchmark timed around
// its operation alone (the harness's task per sample is not timed), one operation per sample, so the percentiles
// are those of single operations.

let benchmarks: @Sendable () -> Void = {
    guard let configuration = PostgresFixture.configurationFromEnvironment() else {
        FileHandle.standardError.write(
            Data(
                ("PostgresBenchmarks: FORGE_POSTGRES_URL is not set (or not a postgres:// URL), so no Postgres "
                    + "benchmark is registered; run them with `scripts/postgres-for-tests swift package "
                    + "--package-path Benchmarks benchmark --target PostgresBenchmarks`\n")
                    .utf8
            )
        )
        return
    }
    let fixture = PostgresFixture(configuration: configuration)
    // Before every benchmark; the client starts and the table is prepared once.
    Benchmark.setup = { try await fixture.start() }

    let network = Benchmark.Configuration.forge(seconds: 2)
    let key = fixture.key
    let store = fixture.store
    let raw = fixture.raw

    let folder = Scratch.folder("postgres-disk")
    let disk = DiskKVStore(directory: .custom(folder), namespace: "bench")
    try? disk.set(key, value: .sample)

    // MARK: get: the store's read and decode beside the same statement and decode, raw.

    Benchmark("postgres.kv.get:ours", configuration: network) { benchmark in
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try await store.get(key)) }
        benchmark.stopMeasurement()
    }
    Benchmark("postgres.kv.get:limit", configuration: network) { benchmark in
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try await raw.get()) }
        benchmark.stopMeasurement()
    }
    Benchmark("postgres.kv.get:DiskKVStore", configuration: network) { benchmark in
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(disk.get(key)) }
        benchmark.stopMeasurement()
    }

    // MARK: set: the store's encode and upsert beside the same encoding and statement, raw.

    Benchmark("postgres.kv.set:ours", configuration: network) { benchmark in
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try await store.set(key, value: .sample) }
        benchmark.stopMeasurement()
    }
    Benchmark("postgres.kv.set:limit", configuration: network) { benchmark in
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try await raw.set(.sample) }
        benchmark.stopMeasurement()
    }
    Benchmark("postgres.kv.set:DiskKVStore", configuration: network) { benchmark in
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try disk.set(key, value: .sample) }
        benchmark.stopMeasurement()
    }

    // MARK: What the store's lease with a wait costs, alone (LeaseWaitBenchmarks.swift).

    leaseWaitBenchmarks(fixture, configuration: network)

    // MARK: A change of master key of 10,000 secrets (CryptRotationBenchmarks.swift).

    cryptRotationBenchmarks(fixture)

    // MARK: stream: from a set to its value out of a stream of the key.
    // Ours: `store.set`, then the value out of `store.stream(key)` (the store's listener is notified, signals the
    // stream, which re-reads the key). The limit: the raw set, then the value out of a raw `LISTEN` on a leased
    // connection that, notified of the row, sends the raw read and yields what it decoded. Each stream lives from
    // the benchmark's setup, which awaits a few values through it so that it listens, to its teardown; each sample
    // sets a value the key did not hold.

    Benchmark(
        "postgres.kv.stream:ours",
        configuration: network,
        closure: { benchmark in
            let observer = try fixture.currentObserver()
            let profile = fixture.nextProfile()
            benchmark.startMeasurement()
            try await store.set(key, value: profile)
            try await observer.await(profile)
            benchmark.stopMeasurement()
        },
        setup: {
            try await fixture.observe(store.stream(key)) { try await store.set(key, value: $0) }
        },
        teardown: { await fixture.stopObserving() }
    )
    Benchmark(
        "postgres.kv.stream:limit",
        configuration: network,
        closure: { benchmark in
            let observer = try fixture.currentObserver()
            let profile = fixture.nextProfile()
            benchmark.startMeasurement()
            try await raw.set(profile)
            try await observer.await(profile)
            benchmark.stopMeasurement()
        },
        setup: {
            try await fixture.observe(raw.stream()) { try await raw.set($0) }
        },
        teardown: { await fixture.stopObserving() }
    )
}
