import Benchmark
import BenchmarkSupport
import ForgeKVStore
import Foundation

// Reactive fan-out: one set seen by many observers of its key, beside a lock-guarded value (or a plain disk set) and
// as many bare `AsyncStream` continuations, each value read by every consumer, and (for 100 observers) beside the
// same set through the wrapper with no observer; and a set whose key nobody observes while 1,000 observers watch
// another key, beside a plain set. Names are `group:variant`; scripts/benchmarks divides each variant by the
// group's `limit`.

/// Registers the reactive fan-out benchmarks; called from the `benchmarks` closure of KVBenchmarks.swift.
func fanOutBenchmarks() {
    // MARK: In memory: 100 and 1,000 observers, beside a locked value and as many continuations.

    // 100 observers take about 100 µs a set, so a sample runs 1,000 of them; 1,000 observers take a millisecond,
    // so a sample is one set (scripts/benchmarks-report.py divides only the first group by 1,000).
    let fanOut100 = Benchmark.Configuration.forge(scaling: .kilo, maxIterations: 200)
    let fanOut1000 = Benchmark.Configuration.forge(maxIterations: 2_000)

    for (observers, configuration) in [(100, fanOut100), (1_000, fanOut1000)] {
        Benchmark("kv.reactive.fanout\(observers):ours", configuration: configuration) { benchmark in
            try await measureFanOut(through: ReactiveKVStore(InMemoryKVStore()), observers: observers, benchmark)
        }
        Benchmark("kv.reactive.fanout\(observers):limit", configuration: configuration) { benchmark in
            let value = LockedDictionary<Int>()
            await measureFanOutLimit(observers: observers, benchmark) { value.set("value", $0) }
        }
    }

    // The same set through the wrapper with no observer: `ours` beside `none` is what 100 observers add to a set.
    Benchmark("kv.reactive.fanout100:none", configuration: fanOut100) { benchmark in
        try measureSets(through: ReactiveKVStore(InMemoryKVStore()), benchmark)
    }

    // MARK: On disk: 1,000 observers of a DiskKVStore key, beside a plain DiskKVStore set and as many continuations.

    let folder = Scratch.folder("kv-reactive-disk")
    let store = DiskKVStore(directory: .custom(folder), namespace: "bench")
    let limitStore = DiskKVStore(directory: .custom(folder), namespace: "limit")

    Benchmark("kv.reactive.disk.fanout1000:ours", configuration: fanOut1000) { benchmark in
        try await measureFanOut(through: ReactiveKVStore(store), observers: 1_000, benchmark)
    }
    Benchmark("kv.reactive.disk.fanout1000:limit", configuration: fanOut1000) { benchmark in
        let value = LockedDictionary<Int>()
        let key = KVKey<Int>("value")
        try await measureFanOutLimit(observers: 1_000, benchmark) { number in
            try limitStore.set(key, value: number)
            value.set("value", number)
        }
    }

    // MARK: On disk: 100 observers, beside the same set with no observer and a plain set with 100 continuations.
    // While a stream is live the wrapper also watches the store's folder (inotify, for other processes' writes), so
    // each set of `ours` is also read back once when its notification arrives, on the watch's queue. A sample runs
    // `diskSetsPerSample` sets, so that work overlaps the next set measured instead of falling between samples
    // (scripts/benchmarks-report.py divides the group by that number), and many samples, as a disk's pace drifts.
    // `none` is the wrapper with no stream, and so no watch.

    let diskFanOut100 = Benchmark.Configuration.forge(maxIterations: 1_000, seconds: 2)
    let store100 = DiskKVStore(directory: .custom(folder), namespace: "bench100")
    let limitStore100 = DiskKVStore(directory: .custom(folder), namespace: "limit100")

    Benchmark("kv.reactive.disk.fanout100:ours", configuration: diskFanOut100) { benchmark in
        try await measureFanOut(
            through: ReactiveKVStore(store100),
            observers: 100,
            sets: diskSetsPerSample,
            benchmark
        )
    }
    Benchmark("kv.reactive.disk.fanout100:none", configuration: diskFanOut100) { benchmark in
        try measureSets(through: ReactiveKVStore(store100), sets: diskSetsPerSample, benchmark)
    }
    Benchmark("kv.reactive.disk.fanout100:limit", configuration: diskFanOut100) { benchmark in
        let value = LockedDictionary<Int>()
        let key = KVKey<Int>("value")
        try await measureFanOutLimit(observers: 100, sets: diskSetsPerSample, benchmark) { number in
            try limitStore100.set(key, value: number)
            value.set("value", number)
        }
    }

    // MARK: Other keys: a set of a key nobody observes, while 1,000 observers watch another key.
    // `none` is the wrapper with no observer at all, `limit` the wrapped store's own set: `ours` beside `none` is what
    // the observers of the other key cost.

    let otherKeys = Benchmark.Configuration.forge(scaling: .kilo, maxIterations: 2_000)
    let valueKey = KVKey<Int>("value")

    Benchmark("kv.reactive.otherkey1000:ours", configuration: otherKeys) { benchmark in
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let streams = (0..<1_000).map { _ in reactive.stream(KVKey<Int>("other")) }
        benchmark.startMeasurement()
        for number in benchmark.scaledIterations { try reactive.set(valueKey, value: number) }
        benchmark.stopMeasurement()
        blackHole(streams)
    }
    Benchmark("kv.reactive.otherkey1000:none", configuration: otherKeys) { benchmark in
        let reactive = ReactiveKVStore(InMemoryKVStore())
        benchmark.startMeasurement()
        for number in benchmark.scaledIterations { try reactive.set(valueKey, value: number) }
        benchmark.stopMeasurement()
    }
    Benchmark("kv.reactive.otherkey1000:limit", configuration: otherKeys) { benchmark in
        let memory = InMemoryKVStore()
        benchmark.startMeasurement()
        for number in benchmark.scaledIterations { try memory.set(valueKey, value: number) }
        benchmark.stopMeasurement()
    }
}

/// The sets a sample of `kv.reactive.disk.fanout100` runs; scripts/benchmarks-report.py divides its figures by it.
private let diskSetsPerSample = 10

/// Times sets of one key through `reactive`, each followed by every one of `observers` streams reading the value.
///
/// A sample runs `sets` sets, or the benchmark's scaled iterations when nil. The streams are made and their first
/// (current) values read before the measurement starts. Each set stores a value the key did not hold: a stream
/// skips a value equal to the last one, and a store kept between samples (the disk one) still holds the last
/// sample's value.
private func measureFanOut(
    through reactive: ReactiveKVStore,
    observers: Int,
    sets: Int? = nil,
    _ benchmark: Benchmark
) async throws {
    let key = KVKey<Int>("value")
    let first = (reactive.get(key) ?? 0) + 1
    var iterators = (0..<observers).map { _ in reactive.stream(key).makeAsyncIterator() }
    for index in iterators.indices { _ = await iterators[index].next() }
    benchmark.startMeasurement()
    for number in 0..<(sets ?? benchmark.scaledIterations.count) {
        try reactive.set(key, value: first + number)
        for index in iterators.indices { blackHole(await iterators[index].next()) }
    }
    benchmark.stopMeasurement()
}

/// Times sets of one key through `reactive`, which no stream observes: the fan-out's set without its observers.
///
/// A sample runs `sets` sets, or the benchmark's scaled iterations when nil, each storing a value the key did not
/// hold, as ``measureFanOut(through:observers:sets:_:)`` does.
private func measureSets(through reactive: ReactiveKVStore, sets: Int? = nil, _ benchmark: Benchmark) throws {
    let key = KVKey<Int>("value")
    let first = (reactive.get(key) ?? 0) + 1
    benchmark.startMeasurement()
    for number in 0..<(sets ?? benchmark.scaledIterations.count) { try reactive.set(key, value: first + number) }
    benchmark.stopMeasurement()
}

/// Times the limit of a fan-out: `store` each value, yield it to `observers` bare continuations, read it from each.
///
/// A sample runs `sets` sets, or the benchmark's scaled iterations when nil. Like the streams of
/// ``measureFanOut(through:observers:sets:_:)``, each stream has yielded and given up one value before the
/// measurement starts, so a sample of one set does not time the streams' first buffer.
private func measureFanOutLimit(
    observers: Int,
    sets: Int? = nil,
    _ benchmark: Benchmark,
    store: (Int) throws -> Void
) async rethrows {
    let streams = (0..<observers).map { _ in AsyncStream<Int?>.makeStream(bufferingPolicy: .unbounded) }
    var iterators = streams.map { $0.stream.makeAsyncIterator() }
    for stream in streams { stream.continuation.yield(nil) }
    for index in iterators.indices { _ = await iterators[index].next() }
    benchmark.startMeasurement()
    for number in 0..<(sets ?? benchmark.scaledIterations.count) {
        try store(number)
        for stream in streams { stream.continuation.yield(number) }
        for index in iterators.indices { blackHole(await iterators[index].next()) }
    }
    benchmark.stopMeasurement()
}
