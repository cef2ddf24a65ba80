import ForgeSQLite
import Foundation
import GRDB
import Testing

/// A file the stores cannot use fails every call with its operation's typed error naming the path, and is left as it
/// was.
struct SQLiteForeignFileTests {
    @Test(arguments: [Data("not a database, only text\n".utf8), Data(repeating: 0x5A, count: 8192)])
    func aFileThatIsNotADatabaseFailsAndIsLeftUntouched(content: Data) async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            try content.write(to: file)
            let store = SQLiteKVStore(fileURL: file, namespace: "store")

            #expect(store.get(KVKey<Int>("count")) == nil)
            let error = try #require(throws: KVStoreError.self) { try store.set(KVKey<Int>("count"), value: 1) }
            guard case .writeFailed(key: "count", underlying: .other(let message)) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(message.contains(file.path))
            #expect(throws: KVStoreError.self) { try store.value(for: KVKey<Int>("count")) }
            #expect(throws: KVStoreError.self) { try store.keys() }
            #expect(throws: SQLiteStoreError.self) { try store.database.prepare() }
            #expect(try Data(contentsOf: file) == content)
        }
    }

    @Test func aTableOfOursInAnUnknownShapeFailsAndIsLeftUntouched() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let other = try DatabaseQueue(path: file.path)
            try other.write { db in
                try db.execute(sql: "CREATE TABLE forge_kv (key TEXT PRIMARY KEY, value BLOB)")
                try db.execute(sql: "INSERT INTO forge_kv VALUES ('count', '1')")
            }
            let store = SQLiteKVStore(fileURL: file, namespace: "store")

            let error = try #require(throws: SQLiteStoreError.self) { try store.database.prepare() }
            #expect(error.description.contains(file.path))
            #expect(throws: KVStoreError.readFailed(key: "count", underlying: error.reason)) {
                try store.value(for: KVKey<Int>("count"))
            }
            let (hasSchemaTable, columns) = try other.read { db in
                (
                    try db.tableExists("forge_schema"),
                    try Row.fetchAll(db, sql: "PRAGMA table_info(forge_kv)").map { $0["name"] as String }
                )
            }
            #expect(!hasSchemaTable)
            #expect(columns == ["key", "value"])
        }
    }

    @Test func aTableOfANewerSchemaVersionFails() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            try SQLiteKVStore(fileURL: file, namespace: "store").set(KVKey<Int>("count"), value: 1)
            let other = try DatabaseQueue(path: file.path)
            try other.write { db in try db.execute(sql: "UPDATE forge_schema SET version = 3 WHERE component = 'kv'") }

            let store = SQLiteKVStore(fileURL: file, namespace: "store")
            let error = try #require(throws: SQLiteStoreError.self) { try store.database.prepare() }
            #expect(error.description.contains("schema version 3, newer than this ForgeSQLite's 2"))
            #expect(throws: KVStoreError.self) { try store.set(KVKey<Int>("count"), value: 2) }
        }
    }

    /// A newer ForgeSQLite that removed a component's tables, or is moving them, keeps its version in `forge_schema`:
    /// this one neither makes the tables again nor writes its own older version over it.
    @Test(arguments: [
        ("kv", ["forge_kv"], 2),
        ("files", ["forge_files", "forge_file_chunks"], 2),
        ("crypt", ["forge_secrets"], 1),
    ])
    func missingTablesOfANewerSchemaVersionAreNotMadeAgain(
        component: String,
        tables: [String],
        currentVersion: Int
    ) async throws {
        let newer = currentVersion + 1
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            try SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: testMasterKey()).prepare()
            let other = try DatabaseQueue(path: file.path)
            try other.write { db in
                for table in tables { try db.execute(sql: "DROP TABLE \(table)") }
                try db.execute(
                    sql: "UPDATE forge_schema SET version = ? WHERE component = ?",
                    arguments: [newer, component]
                )
            }

            let database = SQLiteDatabase(fileURL: file)
            let error = try #require(throws: (any Error).self) {
                if component == "crypt" {
                    try SQLiteCrypt(database: database, namespace: "secrets", masterKey: testMasterKey()).prepare()
                } else {
                    try database.prepare()
                }
            }
            let openFailed = try #require(error as? SQLiteStoreError)
            #expect(openFailed.description.contains(file.path))
            #expect(
                openFailed.description.contains(
                    "schema version \(newer), newer than this ForgeSQLite's \(currentVersion)"
                )
            )
            let (version, remaining) = try other.read { db in
                (
                    try Int.fetchOne(
                        db,
                        sql: "SELECT version FROM forge_schema WHERE component = ?",
                        arguments: [component]
                    ),
                    try tables.filter { try db.tableExists($0) }
                )
            }
            #expect(version == newer)
            #expect(remaining.isEmpty)
        }
    }

    @Test func aMissingFolderIsMade() async throws {
        try await withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("a/b/store.sqlite")
            try SQLiteKVStore(fileURL: file, namespace: "store").set(KVKey<Int>("count"), value: 1)
            #expect(SQLiteKVStore(fileURL: file, namespace: "store").get(KVKey<Int>("count")) == 1)
        }
    }
}
