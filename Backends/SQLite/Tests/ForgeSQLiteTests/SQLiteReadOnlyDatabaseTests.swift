import ForgeSQLite
import Foundation
import GRDB
import Testing

/// A read-only database never creates its file, its folder or a table, and never changes a byte of the file: reads
/// work, a missing table holds nothing, and every write of every store fails with the store's typed error.
struct SQLiteReadOnlyDatabaseTests {
    static let count = KVKey<Int>("count")
    static let token = CryptKey<String>(key: "token")

    /// The bytes of the database file and of its log, nil for one that is not there.
    private func contents(of file: URL) -> [Data?] {
        [file.path, file.path + "-wal"].map { FileManager.default.contents(atPath: $0) }
    }

    @Test func aMissingFileFailsNamingItsPathAndIsNotCreated() async throws {
        try await withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("a/b/store.sqlite")
            let database = SQLiteDatabase(fileURL: file, readOnly: true)
            let store = SQLiteKVStore(database: database, namespace: "settings")

            #expect(throws: SQLiteStoreError.openFailed(path: file.path, underlying: .notFound)) {
                try database.prepare()
            }
            #expect(throws: KVStoreError.readFailed(key: "count", underlying: .notFound)) {
                try store.value(for: Self.count)
            }
            #expect(throws: KVStoreError.listFailed(underlying: .notFound)) {
                try SQLiteKVStore.namespaces(database: database)
            }
            #expect(throws: KVStoreError.self) { try store.set(Self.count, value: 1) }
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("a").path))
        }
    }

    /// What the database that wrote the file is doing while the read-only one reads it.
    enum Writer: CaseIterable, Sendable {
        /// Open: the log holds the writes, which a read-only connection never moves into the file.
        case open
        /// Closed, leaving its log behind.
        case closed
        /// Closed, and the log moved into the file and removed by another connection that closed last.
        case checkpointed
    }

    @Test(arguments: Writer.allCases)
    func readsWorkAndEveryWriteOfEveryStoreFailsChangingNothing(writer state: Writer) async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let masterKey = testMasterKey(7)
            var writer: SQLiteDatabase? = SQLiteDatabase(fileURL: file)
            if let writer {
                try SQLiteKVStore(database: writer, namespace: "settings").set(Self.count, value: 1)
                try await SQLiteFileStore(database: writer, namespace: "attachments")
                    .save(Data("hi".utf8), to: "docs/a.txt")
                try SQLiteCrypt(database: writer, namespace: "auth", masterKey: masterKey)
                    .set("s3cr3t", for: Self.token)
            }
            if state != .open { writer = nil }
            if state == .checkpointed { try DatabaseQueue(path: file.path).close() }
            let before = contents(of: file)
            #expect((before[1] == nil) == (state == .checkpointed))

            let database = SQLiteDatabase(fileURL: file, readOnly: true)
            let settings = SQLiteKVStore(database: database, namespace: "settings")
            let files = SQLiteFileStore(database: database, namespace: "attachments")
            let secrets = SQLiteCrypt(database: database, namespace: "auth", masterKey: masterKey)
            #expect(database.isReadOnly)
            try database.prepare()
            try secrets.prepare()
            #expect(settings.get(Self.count) == 1)
            #expect(try settings.keys() == ["count"])
            #expect(try await files.load("docs/a.txt") == Data("hi".utf8))
            #expect(try await files.list(in: "docs") == ["docs/a.txt"])
            #expect(try secrets.get(Self.token) == "s3cr3t")
            #expect(try secrets.keys() == ["token"])
            #expect(try secrets.itemCount() == 1)

            let refused = try #require(throws: KVStoreError.self) { try settings.set(Self.count, value: 2) }
            let reason = try #require(refused.reason)
            #expect(reason.description.contains(file.path))
            #expect(reason.description.contains("read-only"))
            #expect(throws: KVStoreError.removeFailed(key: "count", underlying: reason)) {
                try settings.remove(Self.count)
            }
            #expect(throws: KVStoreError.removeAllFailed(underlying: reason)) { try settings.removeAll() }
            await #expect(throws: FileStoreError.writeFailed(path: "docs/b.txt", reason: reason)) {
                try await files.save(Data("new".utf8), to: "docs/b.txt")
            }
            await #expect(throws: FileStoreError.deleteFailed(path: "docs/a.txt", reason: reason)) {
                try await files.delete("docs/a.txt")
            }
            await #expect(throws: FileStoreError.deleteFailed(path: "", reason: reason)) { try await files.deleteAll() }
            #expect(throws: CryptStoreError.writeFailed(key: "token", underlying: reason)) {
                try secrets.set("other", for: Self.token)
            }
            #expect(throws: CryptStoreError.removeFailed(key: "token", underlying: reason)) {
                try secrets.delete(Self.token)
            }
            #expect(throws: CryptStoreError.removeAllFailed(underlying: reason)) { try secrets.deleteAll() }
            await #expect(throws: CryptStoreError.writeFailed(key: "token", underlying: reason)) {
                try await StorageTransaction.run { transaction in
                    try transaction.set("other", for: Self.token, in: secrets)
                    try transaction.set(Self.count, value: 3, in: settings)
                }
            }
            await #expect(throws: KVStoreError.writeFailed(key: "count", underlying: reason)) {
                try await StorageTransaction.run { transaction in
                    try transaction.set(Self.count, value: 3, in: settings)
                    try transaction.save(Data("new".utf8), to: "docs/b.txt", in: files)
                }
            }

            // A reader of a database in WAL mode makes an empty log when there is none, and changes no byte.
            let after = contents(of: file)
            #expect(after[0] == before[0])
            #expect(after[1] == before[1] || (before[1] == nil && after[1] == Data()))
            #expect(settings.get(Self.count) == 1)
            #expect(try secrets.get(Self.token) == "s3cr3t")
            withExtendedLifetime(writer) {}
        }
    }

    @Test func missingTablesHoldNothingAndAreNotCreated() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            try await DatabaseQueue(path: file.path).write { db in try db.execute(sql: "CREATE TABLE other (x)") }
            let before = contents(of: file)

            let database = SQLiteDatabase(fileURL: file, readOnly: true)
            let settings = SQLiteKVStore(database: database, namespace: "settings")
            let files = SQLiteFileStore(database: database, namespace: "attachments")
            let secrets = SQLiteCrypt(database: database, namespace: "auth", masterKey: testMasterKey())
            try database.prepare()
            try secrets.prepare()
            #expect(settings.get(Self.count) == nil)
            #expect(try settings.keys().isEmpty)
            await #expect(throws: FileStoreError.notFound(path: "docs/a.txt")) { try await files.load("docs/a.txt") }
            #expect(try await files.list(in: "").isEmpty)
            #expect(!files.exists("docs/a.txt"))
            #expect(try secrets.get(Self.token) == nil)
            #expect(try secrets.keys().isEmpty)
            #expect(try secrets.itemCount() == 0)
            #expect(try !secrets.contains(Self.token))

            // Byte for byte, and still in the rollback-journal mode it was made in: a writing opening would turn it
            // to WAL.
            #expect(contents(of: file) == before)
            let (tables, journalMode) = try await DatabaseQueue(path: file.path)
                .read { db in
                    (
                        try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"),
                        try String.fetchOne(db, sql: "PRAGMA journal_mode")
                    )
                }
            #expect(tables == ["other"])
            #expect(journalMode == "delete")
        }
    }

    @Test func aTableOfANewerSchemaVersionFailsEveryCall() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            try SQLiteKVStore(fileURL: file, namespace: "settings").set(Self.count, value: 1)
            try await DatabaseQueue(path: file.path)
                .write { db in
                    try db.execute(sql: "UPDATE forge_schema SET version = 3 WHERE component = 'kv'")
                }

            let database = SQLiteDatabase(fileURL: file, readOnly: true)
            let error = try #require(throws: SQLiteStoreError.self) { try database.prepare() }
            #expect(error.description.contains("schema version 3, newer than this ForgeSQLite's 2"))
            #expect(throws: KVStoreError.readFailed(key: "count", underlying: error.reason)) {
                try SQLiteKVStore(database: database, namespace: "settings").value(for: Self.count)
            }
        }
    }

    @Test func aSecretsTableOfAnotherShapeFailsTheSecretStore() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            try await DatabaseQueue(path: file.path)
                .write { db in
                    try db.execute(sql: "CREATE TABLE forge_secrets (name TEXT PRIMARY KEY, secret BLOB)")
                }

            let database = SQLiteDatabase(fileURL: file, readOnly: true)
            let secrets = SQLiteCrypt(database: database, namespace: "auth", masterKey: testMasterKey())
            #expect(throws: SQLiteStoreError.self) { try secrets.prepare() }
            #expect(throws: CryptStoreError.self) { try secrets.get(Self.token) }
            #expect(throws: CryptStoreError.self) { try SQLiteCrypt.namespaces(database: database) }
        }
    }

    @Test func aWrongMasterKeyFailsReadsAsOnAWritableDatabase() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            try SQLiteCrypt(fileURL: file, namespace: "auth", masterKey: testMasterKey(1))
                .set("s3cr3t", for: Self.token)

            let database = SQLiteDatabase(fileURL: file, readOnly: true)
            let wrong = SQLiteCrypt(database: database, namespace: "auth", masterKey: testMasterKey(2))
            let error = try #require(throws: CryptStoreError.self) { try wrong.get(Self.token) }
            guard case .wrongMasterKey = error else {
                Issue.record("unexpected error \(error)")
                return
            }
        }
    }

    @Test func secretsWhoseHeaderIsGoneAreACorruptVault() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            try SQLiteCrypt(fileURL: file, namespace: "auth", masterKey: testMasterKey(1))
                .set("s3cr3t", for: Self.token)
            try await DatabaseQueue(path: file.path)
                .write { db in
                    try db.execute(sql: "DELETE FROM forge_secrets WHERE item = 'header'")
                }

            let secrets = SQLiteCrypt(
                database: SQLiteDatabase(fileURL: file, readOnly: true),
                namespace: "auth",
                masterKey: testMasterKey(1)
            )
            let error = try #require(throws: CryptStoreError.self) { try secrets.keys() }
            guard case .corruptVault = error else {
                Issue.record("unexpected error \(error)")
                return
            }
        }
    }

    @Test func aNamespaceWrittenAfterTheDatabaseOpenedIsRead() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            try await DatabaseQueue(path: file.path).write { db in try db.execute(sql: "CREATE TABLE other (x)") }
            let database = SQLiteDatabase(fileURL: file, readOnly: true)
            let settings = SQLiteKVStore(database: database, namespace: "settings")
            let secrets = SQLiteCrypt(database: database, namespace: "auth", masterKey: testMasterKey(1))
            #expect(settings.get(Self.count) == nil)
            #expect(try secrets.get(Self.token) == nil)

            try SQLiteKVStore(fileURL: file, namespace: "settings").set(Self.count, value: 1)
            try SQLiteCrypt(fileURL: file, namespace: "auth", masterKey: testMasterKey(1))
                .set("s3cr3t", for: Self.token)
            #expect(settings.get(Self.count) == 1)
            #expect(try secrets.get(Self.token) == "s3cr3t")
        }
    }
}
