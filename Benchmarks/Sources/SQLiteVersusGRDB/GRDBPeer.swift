import BenchmarkSupport
import Foundation
import GRDB

/// The peer: a key-value table and a table of blobs in a GRDB `DatabasePool`, written as GRDB's documentation writes
/// them: the schema made by a `DatabaseMigrator`, every statement a cached one, reads in `read`, writes in `write`.
///
/// The key-value table is keyed by its text key `WITHOUT ROWID`, like the library's; a value is the same JSON, as a
/// blob. The files' table keeps its rowid, as SQLite advises for rows of a megabyte.
final class GRDBPeer: Sendable {
    static let select = "SELECT value FROM kv WHERE key = ?"
    /// As GRDB's `upsert` writes it: the row updated in place when the key is there.
    static let upsert =
        "INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
    static let keys = "SELECT key FROM kv ORDER BY key"
    static let fileSelect = "SELECT data FROM files WHERE path = ?"
    /// As GRDB's `upsert` writes it: the row updated in place when the path is there.
    static let fileUpsert = """
        INSERT INTO files (path, modified, data) VALUES (?, ?, ?)
        ON CONFLICT (path) DO UPDATE SET modified = excluded.modified, data = excluded.data
        """

    /// The pool.
    let pool: DatabasePool

    /// Opens the pool on `path`, its writer's `synchronous` set to `synchronous` (`NORMAL` or `FULL`), and migrates
    /// the schema.
    init(path: String, synchronous: String) throws {
        pool = try DatabasePool(path: path)
        // The pool turns WAL on with `synchronous = NORMAL` on its writer, after `Configuration.prepareDatabase` runs:
        // set on the writer once it is open, the level holds (`writerSettings()` reads it back).
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = \(synchronous)") }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE kv (key TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL) WITHOUT ROWID")
            try db.execute(
                sql: "CREATE TABLE files (path TEXT PRIMARY KEY NOT NULL, modified REAL NOT NULL, data BLOB NOT NULL)"
            )
        }
        try migrator.migrate(pool)
    }

    /// The writer's journal mode and `synchronous` level (1 NORMAL, 2 FULL), read back.
    func writerSettings() throws -> (journalMode: String, synchronous: Int) {
        try pool.writeWithoutTransaction { db in
            (
                try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "?",
                try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1
            )
        }
    }

    /// The profile stored under `key`, decoded.
    func get(_ key: String) throws -> Profile? {
        let data = try pool.read { db in
            try Data.fetchOne(db.cachedStatement(sql: Self.select), arguments: [key])
        }
        return try data.map { try Codec.decoder.decode(Profile.self, from: $0) }
    }

    /// Stores `profile` under `key`.
    func set(_ key: String, _ profile: Profile) throws {
        let data = try Codec.encoder.encode(profile)
        try pool.write { db in
            try db.cachedStatement(sql: Self.upsert).execute(arguments: [key, data])
        }
    }

    /// Stores `profile` under each of `keys` in one transaction.
    func set(_ keys: [String], _ profile: Profile) throws {
        try pool.write { db in
            let statement = try db.cachedStatement(sql: Self.upsert)
            for key in keys {
                try statement.execute(arguments: [key, try Codec.encoder.encode(profile)])
            }
        }
    }

    /// The keys, sorted.
    func keys() throws -> [String] {
        try pool.read { db in try String.fetchAll(db.cachedStatement(sql: Self.keys)) }
    }

    /// Removes every key.
    func removeAll() throws {
        try pool.write { db in try db.execute(sql: "DELETE FROM kv") }
    }

    /// Stores `data` as the file at `path`.
    func save(_ data: Data, to path: String) throws {
        try pool.write { db in
            try db.cachedStatement(sql: Self.fileUpsert).execute(arguments: [path, Date(), data])
        }
    }

    /// The file at `path`.
    func load(_ path: String) throws -> Data? {
        try pool.read { db in try Data.fetchOne(db.cachedStatement(sql: Self.fileSelect), arguments: [path]) }
    }
}
