import ForgeSQLite
import Foundation
import GRDB
import Testing

/// The namespaces of each kind of store in a database, and the number of secrets of a namespace, read without a store
/// and without the master key.
struct SQLiteInspectionTests {
    static let token = CryptKey<String>(key: "token")

    @Test func eachKindListsTheNamespacesThatHoldItsRowsEachOnceSorted() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let database = SQLiteDatabase(fileURL: file)
            try SQLiteKVStore(database: database, namespace: "settings").set(KVKey<Int>("count"), value: 1)
            // "café" composed and decomposed: one namespace.
            try SQLiteKVStore(database: database, namespace: "cafe\u{301}").set(KVKey<Int>("a"), value: 1)
            try SQLiteKVStore(database: database, namespace: "caf\u{E9}").set(KVKey<Int>("b"), value: 2)
            try SQLiteKVStore(database: database, namespace: "emptied").set(KVKey<Int>("a"), value: 1)
            try SQLiteKVStore(database: database, namespace: "emptied").removeAll()
            let attachments = SQLiteFileStore(database: database, namespace: "attachments")
            try await attachments.save(Data("1".utf8), to: "a.txt")
            try await attachments.save(Data("2".utf8), to: "docs/b.txt")
            try SQLiteCrypt(database: database, namespace: "auth", masterKey: testMasterKey()).set("t", for: Self.token)
            let cleared = SQLiteCrypt(database: database, namespace: "cleared", masterKey: testMasterKey())
            try cleared.set("t", for: Self.token)
            try cleared.deleteAll()

            for database in [database, SQLiteDatabase(fileURL: file, readOnly: true)] {
                #expect(try SQLiteKVStore.namespaces(database: database) == ["caf\u{E9}", "settings"])
                #expect(try SQLiteFileStore.namespaces(database: database) == ["attachments"])
                #expect(try SQLiteCrypt.namespaces(database: database) == ["auth", "cleared"])
                #expect(try SQLiteCrypt.itemCount(database: database, namespace: "auth") == 1)
                #expect(try SQLiteCrypt.itemCount(database: database, namespace: "cleared") == 0)
                #expect(try SQLiteCrypt.itemCount(database: database, namespace: "settings") == nil)
            }
            #expect(SQLiteKVStore.tableName == "forge_kv")
            #expect(SQLiteFileStore.tableName == "forge_files")
            #expect(SQLiteCrypt.tableName == "forge_secrets")
        }
    }

    @Test func itemCountCountsSecretsButNotTheHeaderNorRowsOfOtherSQL() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let database = SQLiteDatabase(fileURL: file)
            let secrets = SQLiteCrypt(database: database, namespace: "caf\u{E9}", masterKey: testMasterKey())
            for index in 0..<3 { try secrets.set("s\(index)", for: CryptKey<String>(key: "k\(index)")) }
            try await DatabaseQueue(path: file.path)
                .write { db in
                    try db.execute(
                        sql: "INSERT INTO forge_secrets (namespace, item, sealed) VALUES (?, 'not an item', x'00')",
                        arguments: [Data("caf\u{E9}".utf8)]
                    )
                }

            #expect(try SQLiteCrypt.itemCount(database: database, namespace: "cafe\u{301}") == 3)
            #expect(try secrets.itemCount() == 3)
        }
    }

    @Test func secretsWhoseHeaderIsGoneAreCounted() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let secrets = SQLiteCrypt(fileURL: file, namespace: "auth", masterKey: testMasterKey())
            try secrets.set("t", for: Self.token)
            try await DatabaseQueue(path: file.path)
                .write { db in
                    try db.execute(sql: "DELETE FROM forge_secrets WHERE item = 'header'")
                }

            let database = SQLiteDatabase(fileURL: file, readOnly: true)
            #expect(try SQLiteCrypt.namespaces(database: database) == ["auth"])
            #expect(try SQLiteCrypt.itemCount(database: database, namespace: "auth") == 1)
        }
    }

    @Test func missingTablesHoldNoNamespaceAndAreNotCreated() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            try SQLiteKVStore(fileURL: file, namespace: "settings").set(KVKey<Int>("count"), value: 1)

            for database in [SQLiteDatabase(fileURL: file, readOnly: true), SQLiteDatabase(fileURL: file)] {
                #expect(try SQLiteCrypt.namespaces(database: database).isEmpty)
                #expect(try SQLiteCrypt.itemCount(database: database, namespace: "settings") == nil)
            }
            let hasSecretsTable = try await DatabaseQueue(path: file.path)
                .read { db in
                    try db.tableExists("forge_secrets")
                }
            #expect(!hasSecretsTable)

            let other = databaseFile(in: folder)
            try await DatabaseQueue(path: other.path).write { db in try db.execute(sql: "CREATE TABLE other (x)") }
            let readOnly = SQLiteDatabase(fileURL: other, readOnly: true)
            #expect(try SQLiteKVStore.namespaces(database: readOnly).isEmpty)
            #expect(try SQLiteFileStore.namespaces(database: readOnly).isEmpty)
            #expect(try SQLiteCrypt.namespaces(database: readOnly).isEmpty)
            let tables = try await DatabaseQueue(path: other.path)
                .read { db in
                    try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
                }
            #expect(tables == ["other"])
        }
    }

    @Test func aFailureIsTheListingErrorOfEachKind() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            try Data("not a database, only text\n".utf8).write(to: file)
            let database = SQLiteDatabase(fileURL: file, readOnly: true)

            let error = try #require(throws: KVStoreError.self) { try SQLiteKVStore.namespaces(database: database) }
            let reason = try #require(error.reason)
            #expect(reason.description.contains(file.path))
            #expect(throws: FileStoreError.listFailed(path: "", reason: reason)) {
                try SQLiteFileStore.namespaces(database: database)
            }
            #expect(throws: CryptStoreError.listFailed(underlying: reason)) {
                try SQLiteCrypt.namespaces(database: database)
            }
            #expect(throws: CryptStoreError.listFailed(underlying: reason)) {
                try SQLiteCrypt.itemCount(database: database, namespace: "auth")
            }
        }
    }

    @Test func aSecretsTableOfAnotherShapeFailsTheSecretsInspection() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            try await DatabaseQueue(path: file.path)
                .write { db in
                    try db.execute(sql: "CREATE TABLE forge_secrets (name TEXT PRIMARY KEY, secret BLOB)")
                }
            for database in [SQLiteDatabase(fileURL: file, readOnly: true), SQLiteDatabase(fileURL: file)] {
                #expect(throws: CryptStoreError.self) { try SQLiteCrypt.namespaces(database: database) }
                #expect(throws: CryptStoreError.self) {
                    try SQLiteCrypt.itemCount(database: database, namespace: "auth")
                }
            }
        }
    }
}
