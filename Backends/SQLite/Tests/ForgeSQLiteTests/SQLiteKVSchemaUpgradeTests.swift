import ForgeSQLite
import ForgeStorageTesting
import Foundation
import GRDB
import Testing

/// A database made by a ForgeSQLite of `forge_kv`'s schema version 1 (before lifetimes) is upgraded to version 2 when
/// it is opened for writing, and keeps its values; a read-only opening, which cannot upgrade it, says so.
struct SQLiteKVSchemaUpgradeTests {
    /// Makes `file` as ForgeSQLite's version 1 of `forge_kv` made it, with the value 1 under "count" in "store".
    private func makeVersionOneDatabase(at file: URL) throws {
        let queue = try DatabaseQueue(path: file.path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE forge_schema (component TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL);
                    CREATE TABLE forge_kv (
                        namespace BLOB NOT NULL,
                        name BLOB NOT NULL,
                        value TEXT NOT NULL,
                        PRIMARY KEY (namespace, name)
                    ) WITHOUT ROWID;
                    INSERT INTO forge_schema (component, version) VALUES ('kv', 1);
                    """
            )
            try db.execute(
                sql: "INSERT INTO forge_kv (namespace, name, value) VALUES (?, ?, ?)",
                arguments: [Data("store".utf8), Data("count".utf8), "1"]
            )
        }
        try queue.close()
    }

    @Test func aVersionOneDatabaseIsUpgradedAndKeepsItsValues() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            try makeVersionOneDatabase(at: file)
            let clock = ManualExpiryClock()
            let store = SQLiteKVStore(fileURL: file, namespace: "store", expiry: KVExpiry(clock: clock))

            #expect(store.get(KVKey<Int>("count")) == 1)
            #expect(try store.expirationDate(of: KVKey<Int>("count")) == nil)
            #expect(try store.keys() == ["count"])
            try store.set(KVKey<String>("token"), value: "t0k3n", expiresAfter: .seconds(10))
            clock.advance(by: .seconds(10))
            #expect(store.get(KVKey<String>("token")) == nil)
            #expect(try store.reclaimExpiredValues(limit: 10) == 1)
            #expect(store.get(KVKey<Int>("count")) == 1)

            let (version, columns, indexes) = try DatabaseQueue(path: file.path)
                .read { db in
                    (
                        try Int.fetchOne(db, sql: "SELECT version FROM forge_schema WHERE component = 'kv'"),
                        try Row.fetchAll(db, sql: "PRAGMA table_info(forge_kv)").map { $0["name"] as String },
                        try String.fetchAll(
                            db,
                            sql:
                                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'forge_kv' AND sql IS NOT NULL"
                        )
                    )
                }
            #expect(version == 2)
            #expect(columns == ["namespace", "name", "value", "expires_at"])
            #expect(indexes == ["forge_kv_expiry"])
        }
    }

    @Test func aReadOnlyOpeningOfAVersionOneDatabaseFailsAndLeavesItAsItWas() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            try makeVersionOneDatabase(at: file)
            let database = SQLiteDatabase(fileURL: file, readOnly: true)

            let error = try #require(throws: SQLiteStoreError.self) { try database.prepare() }
            #expect(error.description.contains("schema version 1, older than this ForgeSQLite's 2"))
            #expect(throws: KVStoreError.self) {
                try SQLiteKVStore(database: database, namespace: "store").value(for: KVKey<Int>("count"))
            }
            let version = try DatabaseQueue(path: file.path)
                .read { db in
                    try Int.fetchOne(db, sql: "SELECT version FROM forge_schema WHERE component = 'kv'")
                }
            #expect(version == 1)
        }
    }
}
