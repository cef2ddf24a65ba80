import Benchmark
import BenchmarkSupport
import ForgeKVStore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `kv.defaults.<operation>.<n>keys:*`: UserDefaultsKVStore on a suite that already holds 100, 1,000 or 10,000
/// keys, beside plain UserDefaults (the `limit`: it only touches memory until `synchronize()`) and a ``DiskKVStore``
/// whose folder holds as many keys.
///
/// The groups answer how the store's costs grow with the size of its property list, and from what size
/// ``DiskKVStore``, whose costs do not grow with the number of keys, is the better choice.
func defaultsScaleBenchmarks() {
    for keys in [100, 1_000, 10_000] {
        DefaultsScale(keys: keys).register()
    }
}

/// A suite and a store folder of `keys` keys, and the benchmarks that run on them.
private final class DefaultsScale {
    /// How many keys the suite and the folder hold before each benchmark.
    let keys: Int
    /// The suite's name, unique to these benchmarks.
    let suiteName: String
    /// The suite, through plain UserDefaults.
    let suite: UserDefaults
    /// The store on the suite.
    let store: UserDefaultsKVStore
    /// A disk store whose folder holds as many keys as the suite.
    let disk: DiskKVStore
    /// The same folder, with every write flushed to the device.
    let flushedDisk: DiskKVStore

    init(keys: Int) {
        self.keys = keys
        suiteName = "forge-storage-benchmarks-scale-\(keys)"
        suite = UserDefaults(suiteName: suiteName) ?? .standard
        store = UserDefaultsKVStore(defaults: suite, domainName: suiteName)
        let folder = Scratch.folder("kv-defaults-scale-\(keys)")
        disk = DiskKVStore(directory: .custom(folder), namespace: "bench")
        flushedDisk = DiskKVStore(directory: .custom(folder), namespace: "bench", durability: .flushed)
    }

    /// The property list UserDefaults keeps the suite in on Linux.
    private var plistPath: String {
        let configured = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] ?? ""
        let folder = configured.hasPrefix("/") ? configured : NSHomeDirectory() + "/.config"
        return folder + "/\(suiteName).plist"
    }

    /// Writes the suite's property list with `keys` integer keys, then has UserDefaults read it anew.
    func fillSuite() {
        var values: [String: Any] = [:]
        for index in 0..<keys { values["key\(index)"] = index }
        let data = try? PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0)
        try? data?.write(to: URL(fileURLWithPath: plistPath))
        suite.synchronize()
        blackHole(store.get(KVKey<Int>("key1")))
    }

    /// Gives the disk store's folder `keys` keys, as many as the suite, and waits until the system has written them.
    ///
    /// Without the wait, the measured writes would share the disk with the write-back of the filling ones: ext4 then
    /// makes a rename over a file wait for its data, and a `set` took 0.5 to 1 ms at 1,000 keys instead of 0.1 ms.
    func fillFolder() throws {
        for index in 0..<keys { try disk.set(KVKey<Int>("key\(index)"), value: index) }
        sync()
    }

    /// Removes the suite's property list, after writing what is pending so that nothing brings it back.
    func removeSuite() {
        suite.synchronize()
        unlink(plistPath)
        suite.synchronize()
    }

    /// Registers `name` to run `body` on the suite after `setup`, and to remove the suite afterwards.
    private func add(
        _ name: String,
        _ configuration: Benchmark.Configuration,
        setup: (() throws -> Void)? = nil,
        _ body: @escaping (Benchmark) throws -> Void
    ) {
        Benchmark(name, configuration: configuration, closure: body, setup: setup, teardown: removeSuite)
    }

    func register() {
        let time = Benchmark.Configuration.forge(maxIterations: 2_000)
        let name = "\(keys)keys"
        let key = KVKey<Int>("key7")
        let countKey = KVKey<Int>("count")
        let store = store
        let suite = suite
        let disk = disk
        let flushedDisk = flushedDisk
        let fillBoth = {
            self.fillSuite()
            try self.fillFolder()
        }

        // A read of a key that is there. Ours checks that no other process changed the file (a `stat`) and reads
        // UserDefaults' memory; plain UserDefaults reads its memory only.
        add("kv.defaults.get.\(name):ours", time, setup: fillSuite) { _ in blackHole(store.get(key)) }
        add("kv.defaults.get.\(name):limit", time, setup: fillSuite) { _ in blackHole(suite.integer(forKey: key.key)) }
        add("kv.defaults.get.\(name):DiskKVStore", time, setup: fillBoth) { _ in blackHole(disk.get(key)) }

        // A write of a changing value. Ours returns once UserDefaults' memory holds it; the property list is
        // rewritten behind, once for a burst. Plain UserDefaults never writes it by itself on Linux.
        add("kv.defaults.set.\(name):ours", time, setup: fillSuite) { benchmark in
            for index in benchmark.scaledIterations { try store.set(countKey, value: index) }
        }
        add("kv.defaults.set.\(name):limit", time, setup: fillSuite) { benchmark in
            for index in benchmark.scaledIterations { suite.set(index, forKey: countKey.key) }
        }
        add("kv.defaults.set.\(name):DiskKVStore", time, setup: fillBoth) { benchmark in
            for index in benchmark.scaledIterations { try disk.set(countKey, value: index) }
        }

        // A write, then a read of another key: UserDefaults rebuilds its view of the whole domain for the first read
        // after a change (a deep copy of every value), for ours and plain UserDefaults alike.
        add("kv.defaults.setThenGet.\(name):ours", time, setup: fillSuite) { benchmark in
            for index in benchmark.scaledIterations {
                try store.set(countKey, value: index)
                blackHole(store.get(key))
            }
        }
        add("kv.defaults.setThenGet.\(name):limit", time, setup: fillSuite) { benchmark in
            for index in benchmark.scaledIterations {
                suite.set(index, forKey: countKey.key)
                blackHole(suite.integer(forKey: key.key))
            }
        }
        add("kv.defaults.setThenGet.\(name):DiskKVStore", time, setup: fillBoth) { benchmark in
            for index in benchmark.scaledIterations {
                try disk.set(countKey, value: index)
                blackHole(disk.get(key))
            }
        }

        // A write that is in the file when the call returns: ours `set` then `flush()`, plain UserDefaults `set`
        // then `synchronize()` (both rewrite the whole property list, and flush it to the device); the disk store
        // writes one small file, atomically (`DiskKVStore`) or flushed to the device as well (`.flushed`).
        add("kv.defaults.set.flushed.\(name):ours", time, setup: fillSuite) { benchmark in
            for index in benchmark.scaledIterations {
                try store.set(countKey, value: index)
                try store.flush()
            }
        }
        add("kv.defaults.set.flushed.\(name):limit", time, setup: fillSuite) { benchmark in
            for index in benchmark.scaledIterations {
                suite.set(index, forKey: countKey.key)
                suite.synchronize()
            }
        }
        add("kv.defaults.set.flushed.\(name):DiskKVStore", time, setup: fillBoth) { benchmark in
            for index in benchmark.scaledIterations { try disk.set(countKey, value: index) }
        }
        add("kv.defaults.set.flushed.\(name):DiskKVStore.flushed", time, setup: fillBoth) { benchmark in
            for index in benchmark.scaledIterations { try flushedDisk.set(countKey, value: index) }
        }

        // Removing every key of the suite; each iteration first refills it (not measured).
        let removal = Benchmark.Configuration(
            metrics: [.wallClock, .mallocCountTotal],
            timeUnits: .nanoseconds,
            warmupIterations: 1,
            maxDuration: .seconds(1),
            maxIterations: 200
        )
        add("kv.defaults.removeAll.\(name):ours", removal) { benchmark in
            self.fillSuite()
            benchmark.startMeasurement()
            try store.removeAll()
            benchmark.stopMeasurement()
        }
    }
}
