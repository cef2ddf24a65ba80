import ForgeSQLite
import Foundation
import GRDB
import Testing

/// A file the file stores cannot use fails every call with its operation's typed error naming the path, and is left
/// as it was.
struct SQLiteFileStoreForeignFileTests {
    @Test(arguments: [Data("not a database, only text\n".utf8), Data(repeating: 0x5A, count: 8192)])
    func aFileThatIsNotADatabaseFailsAndIsLeftUntouched(content: Data) async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            try content.write(to: file)
            let store = SQLiteFileStore(fileURL: file, namespace: "store")

            #expect(!store.exists("notes.txt"))
            let error = try await #require(throws: FileStoreError.self) {
                try await store.save(Data("hello".utf8), to: "notes.txt")
            }
            guard case .writeFailed(path: "notes.txt", reason: .other(let message)) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(message.contains(file.path))
            await #expect(throws: FileStoreError.self) { try await store.load("notes.txt") }
            await #expect(throws: FileStoreError.self) { try await store.list(in: "") }
            await #expect(throws: FileStoreError.self) { try await store.totalSize() }
            await #expect(throws: FileStoreError.self) { try await store.deleteAll() }
            #expect(try Data(contentsOf: file) == content)
        }
    }

    @Test func aRowOtherSQLDamagedFailsTheCallWithATypedErrorAndDoesNotCrash() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let store = SQLiteFileStore(fileURL: file, namespace: "store")
            try await store.save(Data("hello".utf8), to: "notes.txt")
            let other = try DatabaseQueue(path: file.path)
            try await other.write { db in try db.execute(sql: "UPDATE forge_files SET modified = 'yesterday'") }

            #expect(throws: FileStoreError.self) { try store.fileInfo(at: "notes.txt") }
            await #expect(throws: FileStoreError.self) { try await store.allFiles() }
        }
    }

    @Test func aFilesTableOfAnotherShapeFailsAndIsLeftUntouched() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let other = try DatabaseQueue(path: file.path)
            try await other.write { db in
                try db.execute(sql: "CREATE TABLE forge_files (name TEXT PRIMARY KEY, body BLOB)")
            }
            let store = SQLiteFileStore(fileURL: file, namespace: "store")

            let error = try #require(throws: SQLiteStoreError.self) { try store.database.prepare() }
            #expect(error.description.contains(file.path))
            await #expect(throws: FileStoreError.readFailed(path: "notes.txt", reason: error.reason)) {
                try await store.load("notes.txt")
            }
            let (hasSchemaTable, columns) = try await other.read { db in
                (
                    try db.tableExists("forge_schema"),
                    try Row.fetchAll(db, sql: "PRAGMA table_info(forge_files)").map { $0["name"] as String }
                )
            }
            #expect(!hasSchemaTable)
            #expect(columns == ["name", "body"])
        }
    }

    @Test func filesTablesOfANewerSchemaVersionFail() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            try await SQLiteFileStore(fileURL: file, namespace: "store").save(Data("1".utf8), to: "a.txt")
            try await DatabaseQueue(path: file.path)
                .write { db in
                    try db.execute(sql: "UPDATE forge_schema SET version = 3 WHERE component = 'files'")
                }

            let store = SQLiteFileStore(fileURL: file, namespace: "store")
            let error = try #require(throws: SQLiteStoreError.self) { try store.database.prepare() }
            #expect(error.description.contains("schema version 3"))
            await #expect(throws: FileStoreError.self) { try await store.save(Data("2".utf8), to: "a.txt") }
        }
    }

    @Test func aFilesTableWithoutItsChunksTableFails() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            try await SQLiteFileStore(fileURL: file, namespace: "store").save(Data("1".utf8), to: "a.txt")
            try await DatabaseQueue(path: file.path).write { db in try db.execute(sql: "DROP TABLE forge_file_chunks") }

            let store = SQLiteFileStore(fileURL: file, namespace: "store")
            let error = try #require(throws: SQLiteStoreError.self) { try store.database.prepare() }
            #expect(error.description.contains("the table forge_file_chunks of '\(file.path)' is not in the shape"))
            await #expect(throws: FileStoreError.self) { try await store.load("a.txt") }
            let hasChunksTable = try await DatabaseQueue(path: file.path)
                .read { db in
                    try db.tableExists("forge_file_chunks")
                }
            #expect(!hasChunksTable)
        }
    }
}
