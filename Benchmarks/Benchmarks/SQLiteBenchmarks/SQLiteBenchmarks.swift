import Benchmark
import BenchmarkSupport
import Crypto
import ForgeSQLite
import Foundation
import GRDB
import Synchronization

// SQLiteKVStore beside GRDB's own key-value table (`kv(key TEXT PRIMARY KEY, value BLOB)` in a DatabasePool, one
// INSERT OR REPLACE per set), at equal durability: `.atomic` against WAL with `synchronous = NORMAL`, `.flushed`
// against WAL with `synchronous = FULL`. Each side encodes and decodes the same Profile with the library's codec.
// SQLiteFileStore beside DiskFileStore, at 1 KiB.

let benchmarks: @Sendable () -> Void = {
    let key = KVKey<Profile>("profile")
    let disk = Benchmark.Configuration.forge()
    let folder = Scratch.folder("kv-sqlite")
    let encoded = (try? Codec.encoder.encode(Profile.sample)) ?? Data()

    let database = SQLiteDatabase(fileURL: folder.appendingPathComponent("ours.sqlite"))
    let store = SQLiteKVStore(database: database, namespace: "bench")
    let flushedStore = SQLiteKVStore(database: database, namespace: "bench-flushed", durability: .flushed)
    try? store.set(key, value: .sample)
    let grdb = try? makeGRDBTable(atPath: folder.path + "/grdb.sqlite")
    let grdbFull = try? makeGRDBTable(atPath: folder.path + "/grdb-full.sqlite", synchronous: "FULL")
    try? grdb?.write { db in try db.execute(sql: Peer.upsert, arguments: ["profile", encoded]) }

    Benchmark("kv.sqlite.get:ours", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(store.get(key)) }
    }
    Benchmark("kv.sqlite.get:GRDB", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations {
            let data = try grdb?.read { db in try Data.fetchOne(db, sql: Peer.select, arguments: ["profile"]) }
            blackHole(data.flatMap { try? Codec.decoder.decode(Profile.self, from: $0) })
        }
    }
    Benchmark("kv.sqlite.set:ours", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations { try store.set(key, value: .sample) }
    }
    Benchmark("kv.sqlite.set:GRDB", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations {
            let data = try Codec.encoder.encode(Profile.sample)
            try grdb?.write { db in try db.execute(sql: Peer.upsert, arguments: ["profile", data]) }
        }
    }
    Benchmark("kv.sqlite.set.flushed:ours", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations { try flushedStore.set(key, value: .sample) }
    }
    Benchmark("kv.sqlite.set.flushed:GRDB", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations {
            let data = try Codec.encoder.encode(Profile.sample)
            try grdbFull?.write { db in try db.execute(sql: Peer.upsert, arguments: ["profile", data]) }
        }
    }

    // 100 sets of 100 keys: ours 100 sets in a row, each its own commit, beside GRDB's one transaction of the 100
    // upserts; then ours in one StorageTransaction (each value encoded as it is staged, as a set encodes it) beside
    // the same GRDB transaction.
    let hundredKeys = (0..<100).map { KVKey<Profile>("profile-\($0)") }
    Benchmark("kv.sqlite.set.100:ours 100 sets in a row", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations {
            for key in hundredKeys { try store.set(key, value: .sample) }
        }
    }
    Benchmark("kv.sqlite.set.100:GRDB one transaction", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations {
            try grdb?.write { db in try Peer.upsert(hundredKeys, in: db) }
        }
    }
    Benchmark("kv.sqlite.transaction.100:ours", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations {
            try StorageTransaction.run { transaction in
                for key in hundredKeys { try transaction.set(key, value: .sample, in: store) }
            }
        }
    }
    Benchmark("kv.sqlite.transaction.100:GRDB", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations {
            try grdb?.write { db in try Peer.upsert(hundredKeys, in: db) }
        }
    }
    // GRDB at its fastest: `execute(sql:)` above prepares each upsert again, as the other GRDB baselines do; a cached
    // statement prepares it once, as ours does.
    Benchmark("kv.sqlite.transaction.100:GRDB cached statement", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations {
            try grdb?.write { db in try Peer.upsert(hundredKeys, in: db, cached: true) }
        }
    }

    // removeAll of 100,000 keys; each iteration first refills the table (not measured).
    let removal = Benchmark.Configuration(
        metrics: [.wallClock],
        timeUnits: .milliseconds,
        warmupIterations: 0,
        maxDuration: .seconds(5),
        maxIterations: 5
    )
    let scale = 100_000
    let removalStore = SQLiteKVStore(database: database, namespace: "bench-removal")
    Benchmark("kv.sqlite.removeAll.100k:ours", configuration: removal) { benchmark in
        try database.fill(namespace: "bench-removal", count: scale, value: encoded)
        benchmark.startMeasurement()
        try removalStore.removeAll()
        benchmark.stopMeasurement()
    }
    Benchmark("kv.sqlite.removeAll.100k:GRDB", configuration: removal) { benchmark in
        try grdb?.fill(count: scale, value: encoded)
        benchmark.startMeasurement()
        try grdb?.write { db in try db.execute(sql: "DELETE FROM kv") }
        benchmark.stopMeasurement()
    }

    // The disk bytes of 100,000 keys, each side's database and log after a checkpoint, reported as the custom metric
    // `diskBytes` by a benchmark of one iteration (so that only a run that picks it fills the tables); its wall clock
    // is the fill's.
    let diskBytes = BenchmarkMetric.custom("diskBytes", useScalingFactor: false)
    let once = Benchmark.Configuration(
        metrics: [.wallClock, diskBytes],
        units: [diskBytes: .count],  // whole bytes, not rounded to megabytes
        warmupIterations: 0,
        maxIterations: 1
    )
    Benchmark("kv.sqlite.diskBytes.100k:ours", configuration: once) { benchmark in
        let sizes = Scratch.folder("kv-sqlite-size-ours")
        let ours = SQLiteDatabase(fileURL: sizes.appendingPathComponent("ours.sqlite"))
        try ours.fill(namespace: "bench", count: scale, value: encoded)
        try ours.checkpoint()
        benchmark.measurement(diskBytes, bytes(sizes, "ours"))
    }
    Benchmark("kv.sqlite.diskBytes.100k:GRDB", configuration: once) { benchmark in
        let sizes = Scratch.folder("kv-sqlite-size-grdb")
        let peer = try makeGRDBTable(atPath: sizes.path + "/grdb.sqlite")
        try peer.fill(count: scale, value: encoded)
        try peer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        benchmark.measurement(diskBytes, bytes(sizes, "grdb"))
    }

    // MARK: Files: SQLiteFileStore beside DiskFileStore, a 1 KiB file saved and loaded, both `.atomic`. As in
    // FileBenchmarks, a load runs 1,000 times per sample, to spread the harness's cost of starting a task.

    let kiB = Data(repeating: 0xA5, count: 1 << 10)
    let sqliteFiles = SQLiteFileStore(database: database, namespace: "bench-files")
    let diskFiles = DiskFileStore(directory: .custom(Scratch.folder("files-sqlite-disk")), namespace: "bench")
    Benchmark("file.sqlite.save.1KiB:ours", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations { try await sqliteFiles.save(kiB, to: "doc-1KiB.bin") }
    }
    Benchmark("file.sqlite.save.1KiB:DiskFileStore", configuration: disk) { benchmark in
        for _ in benchmark.scaledIterations { try await diskFiles.save(kiB, to: "doc-1KiB.bin") }
    }
    Benchmark("file.sqlite.load.1KiB:ours", configuration: .forge(scaling: .kilo)) { benchmark in
        try await sqliteFiles.save(kiB, to: "doc-1KiB.bin")
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try await sqliteFiles.load("doc-1KiB.bin")) }
    }
    Benchmark("file.sqlite.load.1KiB:DiskFileStore", configuration: .forge(scaling: .kilo)) { benchmark in
        try await diskFiles.save(kiB, to: "doc-1KiB.bin")
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try await diskFiles.load("doc-1KiB.bin")) }
    }

    // MARK: Secrets: a change of master key of a namespace of 10,000 secrets, to a new symmetric key, in one
    // transaction, `.flushed`, beside GRDB: one transaction (WAL, `synchronous = FULL`) that reads the rows, opens and
    // seals each with swift-crypto under the other key, and replaces each row by one under a new name, with cached
    // statements. Each iteration is a whole rotation, to the other key.

    let rotation = Benchmark.Configuration(
        metrics: [.wallClock],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(60),
        maxIterations: 10
    )
    Benchmark("crypt.sqlite.rotate.10000:ours", configuration: rotation) { benchmark in
        let secrets = RotatedSecrets.shared
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try secrets.rotate() }
        benchmark.stopMeasurement()
    }
    Benchmark("crypt.sqlite.rotate.10000:GRDB", configuration: rotation) { benchmark in
        let peer = try RotatedRows.shared()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try peer.rotate() }
        benchmark.stopMeasurement()
    }
}

/// A namespace of 10,000 secrets, made when its benchmark first uses it (outside its measurement), moved to the other
/// of two keys by each ``rotate()``.
private final class RotatedSecrets: Sendable {
    static let count = 10_000
    static let secret = String(repeating: "s3cr3t-", count: 9)
    static let shared = RotatedSecrets()

    private let keys = [SymmetricKey(size: .bits256), SymmetricKey(size: .bits256)]
    /// The store, opened with the key the namespace has now, and that key's index.
    private let current: Mutex<(store: SQLiteCrypt, key: Int)>

    private init() {
        let database = SQLiteDatabase(
            fileURL: Scratch.folder("crypt-sqlite-rotation").appendingPathComponent("ours.sqlite")
        )
        let store = SQLiteCrypt(database: database, namespace: "bench", masterKey: .symmetric(keys[0]))
        try? StorageTransaction.run { transaction in
            for index in 0..<Self.count {
                try transaction.set(Self.secret, for: CryptKey<String>(key: "api-token-\(index)"), in: store)
            }
        }
        current = Mutex((store, 0))
    }

    /// Moves the namespace to the other key.
    func rotate() throws {
        try current.withLock { current in
            let next = 1 - current.key
            current.store = try current.store.rotateMasterKey(to: .symmetric(keys[next]))
            current.key = next
        }
    }
}

/// The peer of a rotation: a table of 10,000 sealed rows in GRDB, each replaced in one transaction by the same secret
/// sealed under the other key, under the other of two names.
private final class RotatedRows: Sendable {
    private static let made = Mutex<RotatedRows?>(nil)

    private let pool: DatabasePool
    private let keys = [SymmetricKey(size: .bits256), SymmetricKey(size: .bits256)]
    /// The key the rows are sealed under now.
    private let current = Mutex(0)

    /// The peer, made on first use.
    static func shared() throws -> RotatedRows {
        try made.withLock { made in
            if let made { return made }
            let peer = try RotatedRows()
            made = peer
            return peer
        }
    }

    private init() throws {
        pool = try DatabasePool(path: Scratch.folder("crypt-sqlite-rotation-grdb").path + "/grdb.sqlite")
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let secret = Data(RotatedSecrets.secret.utf8)
        try pool.write { db in
            try db.execute(sql: "CREATE TABLE secrets (item TEXT PRIMARY KEY, sealed BLOB NOT NULL) WITHOUT ROWID")
            for index in 0..<RotatedSecrets.count {
                let sealed = try AES.GCM.seal(secret, using: keys[0], authenticating: Data("0.\(index)".utf8))
                try db.execute(
                    sql: "INSERT INTO secrets (item, sealed) VALUES (?, ?)",
                    arguments: ["0.\(index)", sealed.combined ?? Data()]
                )
            }
        }
    }

    /// Moves every row to the other key.
    func rotate() throws {
        try current.withLock { key in
            let next = 1 - key
            try pool.write { db in
                let rows = try Row.fetchAll(db, sql: "SELECT item, sealed FROM secrets")
                let delete = try db.cachedStatement(sql: "DELETE FROM secrets WHERE item = ?")
                let insert = try db.cachedStatement(sql: "INSERT INTO secrets (item, sealed) VALUES (?, ?)")
                for row in rows {
                    let item: String = row["item"]
                    let newItem = "\(next)" + item.dropFirst()
                    let secret = try AES.GCM.open(
                        AES.GCM.SealedBox(combined: row["sealed"] as Data),
                        using: keys[key],
                        authenticating: Data(item.utf8)
                    )
                    let sealed = try AES.GCM.seal(secret, using: keys[next], authenticating: Data(newItem.utf8))
                    try delete.execute(arguments: [item])
                    try insert.execute(arguments: [newItem, sealed.combined ?? Data()])
                }
            }
            key = next
        }
    }
}

/// The peer's SQL.
private enum Peer {
    static let select = "SELECT value FROM kv WHERE key = ?"
    static let upsert = "INSERT OR REPLACE INTO kv(key, value) VALUES (?, ?)"

    /// Upserts the sample profile at each of `keys`, encoding it for each as a store would; with `cached`, through
    /// the connection's cached statement rather than a statement prepared for each.
    static func upsert(_ keys: [KVKey<Profile>], in db: Database, cached: Bool = false) throws {
        for key in keys {
            let arguments: StatementArguments = [key.key, try Codec.encoder.encode(Profile.sample)]
            if cached {
                try db.cachedStatement(sql: upsert).execute(arguments: arguments)
            } else {
                try db.execute(sql: upsert, arguments: arguments)
            }
        }
    }
}

/// GRDB's key-value table in a WAL pool, with `synchronous` set on the writer after the pool turned WAL on (which sets
/// it to NORMAL).
private func makeGRDBTable(atPath path: String, synchronous: String = "NORMAL") throws -> DatabasePool {
    let pool = try DatabasePool(path: path)
    try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = \(synchronous)") }
    try pool.write { db in
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL)")
    }
    return pool
}

/// The bytes of the files in `folder` whose names start with `prefix` (the database, its log and shared memory).
private func bytes(_ folder: URL, _ prefix: String) -> Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasPrefix(prefix) }
        .compactMap { try? FileManager.default.attributesOfItem(atPath: folder.path + "/" + $0)[.size] as? Int }
        .reduce(0, +)
}

extension DatabasePool {
    /// Fills GRDB's table with `count` keys in one transaction.
    fileprivate func fill(count: Int, value: Data) throws {
        try write { db in
            let statement = try db.makeStatement(sql: Peer.upsert)
            for index in 0..<count { try statement.execute(arguments: ["key-\(index)", value]) }
        }
    }
}

extension SQLiteDatabase {
    /// Fills `namespace` with `count` keys through a second connection on the file, in one transaction (a store
    /// writes one key per transaction, which would make each refill take minutes).
    fileprivate func fill(namespace: String, count: Int, value: Data) throws {
        try prepare()
        let queue = try DatabaseQueue(path: fileURL.path)
        let json = String(decoding: value, as: UTF8.self)
        try queue.write { db in
            let statement = try db.makeStatement(
                sql: "INSERT OR REPLACE INTO forge_kv (namespace, name, value) VALUES (?, ?, ?)"
            )
            for index in 0..<count {
                try statement.execute(arguments: [Data(namespace.utf8), Data("key-\(index)".utf8), json])
            }
        }
    }

    /// Moves the log into the database file and empties it, through a second connection.
    fileprivate func checkpoint() throws {
        let queue = try DatabaseQueue(path: fileURL.path)
        try queue.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }
}
