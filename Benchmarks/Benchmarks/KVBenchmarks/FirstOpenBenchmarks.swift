import Benchmark
import BenchmarkSupport
import ForgeKVStore
import Foundation

/// The first open of a `DiskKVStore` of 100,000 keys in a process (`ours`), then its first read, beside a later open
/// and read (`limit`) of the same store: the first starts the sweep of crashed writers' leftovers, which must stay off
/// this path.
func firstOpenBenchmarks() {
    let key = KVKey<Profile>("key-0")
    let configuration = Benchmark.Configuration.forge(maxIterations: 100)

    Benchmark("kv.disk.open.100000:ours", configuration: configuration) { benchmark in
        let large = largeKVFolder
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let store = DiskKVStore(directory: .custom(large.freshAlias()), namespace: "bench")
            blackHole(store.get(key))
        }
        benchmark.stopMeasurement()
    }
    Benchmark("kv.disk.open.100000:limit", configuration: configuration) { benchmark in
        let large = largeKVFolder
        let base = large.base
        blackHole(DiskKVStore(directory: .custom(base), namespace: "bench"))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let store = DiskKVStore(directory: .custom(base), namespace: "bench")
            blackHole(store.get(key))
        }
        benchmark.stopMeasurement()
    }
}

/// The store folder of 100,000 keys, made when a benchmark first uses it (outside its measurement), so that only the
/// processes of these benchmarks fill it, and each sample takes fresh aliases.
private let largeKVFolder = LargeFolder(
    "kv-100000",
    namespace: "bench",
    count: 100_000,
    aliases: 200,
    file: { "key-\($0).json" },
    contents: (try? Codec.encoder.encode(Profile.sample)) ?? Data()
)
