import Benchmark
import BenchmarkSupport
import ForgeKVStore
import Foundation
import GRDB

// Key-value stores: ours beside the limit and the peer, per backend. Names are `group:variant`; scripts/benchmarks
// divides each variant by the group's `limit`.

let benchmarks: @Sendable () -> Void = {
    let key = KVKey<Profile>("profile")
    let fast = Benchmark.Configuration.forge(scaling: .kilo, maxIterations: 2_000)
    let disk = Benchmark.Configuration.forge()

    // MARK: Memory: InMemoryKVStore beside a locked dictionary.

    let memory = InMemoryKVStore()
    try? memory.set(key, value: .sample)
    let locked = LockedDictionary<Profile>()
    locked.set("profile", .sample)

    Benchmark("kv.memory.get:ours", configuration: fast) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(memory.get(key)) }
    }
    Benchmark("kv.memory.get:limit", configuration: fast) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(locked.get("profile")) }
    }
    Benchmark("kv.memory.set:ours", configuration: fast) { benchmark in
        for _ in benchmark.scaledIterations { try memory.set(key, value: .sample) }
    }
    Benchmark("kv.memory.set:limit", configuration: fast) { benchmark in
        for _ in benchmark.scaledIterations { locked.set("profile", .sample) }
    }

    // MARK: Defaults: UserDefaultsKVStore beside UserDefaults, alone and with `synchronize()`.
    // On Linux the store changes UserDefaults' memory and writes the plist behind, once for a burst of sets (what a
    // `set` costs here is the change in memory under the stores' file lock; the rewrite runs on another thread), and
    // before a read it compares the plist's `stat` with what it last saw, rereading the plist (a `synchronize()`)
    // only when another process changed it. Plain `set` and `integer(forKey:)` only touch memory there; the
    // `.synchronize` peers write or reread the plist every time. The file I/O makes this group use the disk
    // configuration.

    let suite = UserDefaults(suiteName: "forge-storage-benchmarks") ?? .standard
    let defaults = UserDefaultsKVStore(defaults: suite, domainName: "forge-storage-benchmarks")
    let countKey = KVKey<Int>("count")
    try? defaults.set(countKey, value: 42)

    Benchmark("kv.defaults.get:ours", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(defaults.get(countKey)) }
    }
    Benchmark("kv.defaults.get:UserDefaults", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(suite.integer(forKey: "count")) }
    }
    Benchmark("kv.defaults.get:UserDefaults.synchronize", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations {
            suite.synchronize()
            blackHole(suite.integer(forKey: "count"))
        }
    }
    Benchmark("kv.defaults.set:ours", configuration: disk) { benchmark in
        for index in benchmark.scaledIterations { try defaults.set(countKey, value: index) }
    }
    Benchmark("kv.defaults.set:UserDefaults", configuration: disk) { benchmark in
        for index in benchmark.scaledIterations { suite.set(index, forKey: "count") }
    }
    Benchmark("kv.defaults.set:UserDefaults.synchronize", configuration: disk) { benchmark in
        for index in benchmark.scaledIterations {
            suite.set(index, forKey: "count")
            suite.synchronize()
        }
    }

    // MARK: Defaults at scale: the same store on suites of 100 and 10,000 keys (DefaultsScaleBenchmarks.swift).

    defaultsScaleBenchmarks()

    // MARK: The first open of a store of 100,000 keys beside a later one (FirstOpenBenchmarks.swift).

    firstOpenBenchmarks()

    // MARK: Disk: DiskKVStore beside open/read/write/rename, Data(.atomic) and a SQLite table.

    let folder = Scratch.folder("kv-disk")
    let store = DiskKVStore(directory: .custom(folder), namespace: "bench")
    try? store.set(key, value: .sample)
    let limitPath = folder.path + "/limit.json"
    let dataURL = folder.appendingPathComponent("data.json")
    let encoded = (try? Codec.encoder.encode(Profile.sample)) ?? Data()
    Limit.writeAtomically(encoded, toPath: limitPath)
    try? encoded.write(to: dataURL, options: .atomic)
    let database = try? makeDatabase(atPath: folder.path + "/kv.sqlite")
    try? database?
        .write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO kv(key, value) VALUES (?, ?)", arguments: ["profile", encoded])
        }

    Benchmark("kv.disk.get:ours", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(store.get(key)) }
    }
    Benchmark("kv.disk.get:limit", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Limit.readFile(atPath: limitPath).flatMap { try? Codec.decoder.decode(Profile.self, from: $0) })
        }
    }
    Benchmark("kv.disk.get:Data.atomic", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole((try? Data(contentsOf: dataURL)).flatMap { try? Codec.decoder.decode(Profile.self, from: $0) })
        }
    }
    Benchmark("kv.disk.get:GRDB", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations {
            let data = try database?
                .read { db in
                    try Data.fetchOne(db, sql: "SELECT value FROM kv WHERE key = ?", arguments: ["profile"])
                }
            blackHole(data.flatMap { try? Codec.decoder.decode(Profile.self, from: $0) })
        }
    }
    Benchmark("kv.disk.set:ours", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations { try store.set(key, value: .sample) }
    }
    Benchmark("kv.disk.set:limit", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Limit.writeAtomically(try Codec.encoder.encode(Profile.sample), toPath: limitPath))
        }
    }
    Benchmark("kv.disk.set:Data.atomic", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations {
            try Codec.encoder.encode(Profile.sample).write(to: dataURL, options: .atomic)
        }
    }
    Benchmark("kv.disk.set:GRDB", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations {
            let data = try Codec.encoder.encode(Profile.sample)
            try database?
                .write { db in
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO kv(key, value) VALUES (?, ?)",
                        arguments: ["profile", data]
                    )
                }
        }
    }

    // MARK: Flushed disk: a set that survives a power loss, beside the flushed limit and the durable peers.
    // Every variant returns only once the value is on the device: ours and the limit flush the file, rename it and
    // flush the folder; GRDB commits with `synchronous = FULL`; UserDefaults offers `synchronize()` after `set`.

    let flushedFolder = Scratch.folder("kv-disk-flushed")
    let flushedStore = DiskKVStore(directory: .custom(flushedFolder), namespace: "bench", durability: .flushed)
    let flushedLimitPath = flushedFolder.path + "/limit.json"
    let fullQueue = try? makeFullDatabaseQueue(atPath: flushedFolder.path + "/kv-queue.sqlite")
    let fullPool = try? makeFullDatabasePool(atPath: flushedFolder.path + "/kv-pool.sqlite")
    let durableSuite = UserDefaults(suiteName: "forge-storage-benchmarks-flushed") ?? .standard

    Benchmark("kv.disk.set.flushed:ours", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations { try flushedStore.set(key, value: .sample) }
    }
    Benchmark("kv.disk.set.flushed:limit", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Limit.writeFlushed(try Codec.encoder.encode(Profile.sample), toPath: flushedLimitPath))
        }
    }
    // SQLite's default journal (a rollback journal, `DELETE`), as a DatabaseQueue leaves it.
    Benchmark("kv.disk.set.flushed:GRDB", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations {
            let data = try Codec.encoder.encode(Profile.sample)
            try fullQueue?
                .write { db in
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO kv(key, value) VALUES (?, ?)",
                        arguments: ["profile", data]
                    )
                }
        }
    }
    // The WAL journal, as a DatabasePool sets it: one flush of the log per commit.
    Benchmark("kv.disk.set.flushed:GRDB.WAL", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations {
            let data = try Codec.encoder.encode(Profile.sample)
            try fullPool?
                .write { db in
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO kv(key, value) VALUES (?, ?)",
                        arguments: ["profile", data]
                    )
                }
        }
    }
    // `synchronize()` writes nothing when no value has changed, so the value alternates between two of one size. On
    // Linux it rewrites the plist in place and `fsync`s it (seen with strace): flushed, but not atomic.
    let alternation = ProfileAlternation()
    Benchmark("kv.disk.set.flushed:UserDefaults.synchronize", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations {
            durableSuite.set(try Codec.encoder.encode(alternation.next()), forKey: "profile")
            durableSuite.synchronize()
        }
    }

    // MARK: Reactive: fan-out to many observers, in FanOutBenchmarks.swift.

    fanOutBenchmarks()
}

/// A key-value table in a WAL database with `synchronous = NORMAL`: no flush per commit, like the other stores.
private func makeDatabase(atPath path: String) throws -> DatabasePool {
    var configuration = Configuration()
    configuration.prepareDatabase { db in
        try db.execute(sql: "PRAGMA synchronous = NORMAL")
    }
    let pool = try DatabasePool(path: path, configuration: configuration)
    try pool.write { db in
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL)")
    }
    return pool
}

/// The same table in a WAL database with `synchronous = FULL`: each commit flushes the log before it returns.
///
/// A pool sets `synchronous = NORMAL` on its writer when it turns WAL on, after `prepareDatabase` has run, so the
/// pragma is set afterwards, on the pool's one writer connection.
private func makeFullDatabasePool(atPath path: String) throws -> DatabasePool {
    let pool = try makeDatabase(atPath: path)
    try pool.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA synchronous = FULL")
    }
    return pool
}

/// The same table in a DatabaseQueue with `synchronous = FULL`: each commit flushes before it returns.
///
/// The journal is the one GRDB leaves a queue in: SQLite's rollback journal (`DELETE`). A commit flushes the journal,
/// its folder, the journal's header and the database (strace shows four `fdatasync`s), then deletes the journal.
private func makeFullDatabaseQueue(atPath path: String) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.prepareDatabase { db in
        try db.execute(sql: "PRAGMA synchronous = FULL")
    }
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    try queue.write { db in
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL)")
    }
    return queue
}
