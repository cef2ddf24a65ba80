import Benchmark
import BenchmarkSupport
import Crypto
import ForgeSQLite
import Foundation
import GRDB
import Synchronization

// The disk bytes of 100,000 keys in SQLiteKVStore's table beside GRDB's own key-value table (`kv(key TEXT PRIMARY
// KEY, value BLOB) WITHOUT ROWID` in a DatabasePool), and a change of SQLiteCrypt's master key beside the same work in
// one GRDB transaction. The other pairs with GRDB are SQLiteVersusGRDB's (Sources/SQLiteVersusGRDB).

let benchmarks: @Sendable () -> Void = {
    // The reads, writes, transactions, listings and removals beside GRDB, and the file store's, are timed by the
    // SQLiteVersusGRDB executable, whose pairs take turns in one process (this harness runs one benchmark after
    // another); these two are measured once per run, so they stay here.
    let scale = 100_000

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
        let encoded = try Codec.encoder.encode(Profile.sample)
        try ours.fill(namespace: "bench", count: scale, value: encoded)
        try ours.checkpoint()
        benchmark.measurement(diskBytes, bytes(sizes, "ours"))
    }
    Benchmark("kv.sqlite.diskBytes.100k:GRDB", configuration: once) { benchmark in
        let sizes = Scratch.folder("kv-sqlite-size-grdb")
        let peer = try makeGRDBTable(atPath: sizes.path + "/grdb.sqlite")
        let encoded = try Codec.encoder.encode(Profile.sample)
        try peer.fill(count: scale, value: encoded)
        _ = try peer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        benchmark.measurement(diskBytes, bytes(sizes, "grdb"))
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
    static let upsert = "INSERT OR REPLACE INTO kv(key, value) VALUES (?, ?)"
}

/// GRDB's key-value table in a WAL pool, with `synchronous` set on the writer after the pool turned WAL on (which sets
/// it to NORMAL).
private func makeGRDBTable(atPath path: String, synchronous: String = "NORMAL") throws -> DatabasePool {
    let pool = try DatabasePool(path: path)
    try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = \(synchronous)") }
    try pool.write { db in
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL) WITHOUT ROWID")
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
        _ = try queue.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }
}
