import ForgeSQLite
import Foundation
import GRDB
import Testing

/// A database made by a ForgeSQLite of the file tables' schema version 1 (every file in chunks) is upgraded to version 2
/// when it is opened for writing, and keeps its files; a read-only opening, which cannot upgrade it, says so.
struct SQLiteFileSchemaUpgradeTests {
    /// Makes `file` as ForgeSQLite's version 1 of the file tables made it, with "a.txt" holding "hello" and the empty
    /// file "empty.txt" in "store".
    private func makeVersionOneDatabase(at file: URL) throws {
        let queue = try DatabaseQueue(path: file.path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE forge_schema (component TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL);
                    CREATE TABLE forge_files (
                        namespace BLOB NOT NULL,
                        path BLOB NOT NULL,
                        size INTEGER NOT NULL,
                        modified REAL NOT NULL,
                        PRIMARY KEY (namespace, path)
                    ) WITHOUT ROWID;
                    CREATE TABLE forge_file_chunks (
                        namespace BLOB NOT NULL,
                        path BLOB NOT NULL,
                        chunk INTEGER NOT NULL,
                        data BLOB NOT NULL,
                        PRIMARY KEY (namespace, path, chunk)
                    );
                    INSERT INTO forge_schema (component, version) VALUES ('files', 1);
                    """
            )
            let namespace = Data("store".utf8)
            for (path, size) in [("a.txt", 5), ("empty.txt", 0)] {
                try db.execute(
                    sql: "INSERT INTO forge_files (namespace, path, size, modified) VALUES (?, ?, ?, 0)",
                    arguments: [namespace, Data(path.utf8), size]
                )
            }
            try db.execute(
                sql: "INSERT INTO forge_file_chunks (namespace, path, chunk, data) VALUES (?, ?, 0, ?)",
                arguments: [namespace, Data("a.txt".utf8), Data("hello".utf8)]
            )
        }
        try queue.close()
    }

    @Test func aVersionOneDatabaseIsUpgradedAndKeepsItsFiles() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            try makeVersionOneDatabase(at: file)
            let store = SQLiteFileStore(fileURL: file, namespace: "store")

            #expect(try await store.load("a.txt") == Data("hello".utf8))
            #expect(try await store.load("empty.txt") == Data())
            try await store.save(Data("new".utf8), to: "b.txt")
            try await store.save(Data("hello again".utf8), to: "a.txt")
            #expect(try await store.load("b.txt") == Data("new".utf8))
            #expect(try await store.load("a.txt") == Data("hello again".utf8))

            let (version, columns, chunks) = try await DatabaseQueue(path: file.path)
                .read { db in
                    (
                        try Int.fetchOne(db, sql: "SELECT version FROM forge_schema WHERE component = 'files'"),
                        try Row.fetchAll(db, sql: "PRAGMA table_info(forge_files)").map { $0["name"] as String },
                        try Int.fetchOne(db, sql: "SELECT count(*) FROM forge_file_chunks")
                    )
                }
            #expect(version == 2)
            #expect(columns == ["namespace", "path", "size", "modified", "data"])
            #expect(chunks == 0, "a.txt, saved again, is kept in its row")
        }
    }

    @Test func aReadOnlyOpeningOfAVersionOneDatabaseFailsAndLeavesItAsItWas() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            try makeVersionOneDatabase(at: file)
            let database = SQLiteDatabase(fileURL: file, readOnly: true)

            let error = try #require(throws: SQLiteStoreError.self) { try database.prepare() }
            #expect(error.description.contains("schema version 1, older than this ForgeSQLite's 2"))
            await #expect(throws: FileStoreError.self) {
                _ = try await SQLiteFileStore(database: database, namespace: "store").load("a.txt")
            }
            let version = try await DatabaseQueue(path: file.path)
                .read { db in try Int.fetchOne(db, sql: "SELECT version FROM forge_schema WHERE component = 'files'") }
            #expect(version == 1)
        }
    }
}
