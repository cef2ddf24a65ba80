import ForgeSQLite
import Foundation
import GRDB
import Testing

/// In WAL mode a reader never needs the writer's lock: a fresh `SQLiteDatabase` whose first call is a read, made while
/// another connection holds the write lock, reads what is stored, and never reads it as missing.
///
/// The other connection takes the lock before the read and releases it only after the read has returned, so a read
/// that waited for it would wait out the database's short busy timeout and fail (or read nil), never pass.
struct SQLiteReadBesideWriterTests {
    private let token = KVKey<String>("token")
    private let other = KVKey<Int>("count")

    /// A database file whose tables hold `token` and `other`, and a secret and a file, stored by a database since closed,
    /// so that no connection is open on the file (its log is gone) when the other connection takes the lock.
    private func storedFile(in folder: URL) throws -> URL {
        let file = databaseFile(in: folder)
        let database = SQLiteDatabase(fileURL: file)
        let store = SQLiteKVStore(database: database, namespace: "store")
        try store.set(token, value: "t0k3n")
        try store.set(other, value: 7)
        try SQLiteCrypt(database: database, namespace: "secrets", masterKey: testMasterKey(1))
            .set("hidden", for: CryptKey<String>(key: "secret"))
        try SQLiteFileStore(database: database, namespace: "files")
            .write(Data("contents".utf8), at: StoredFilePath(validating: "a.txt"), replacing: true)
        try database.close()
        return file
    }

    /// Runs `body` while another connection on `file`, as another process would, holds the write lock in a
    /// transaction that deletes every key-value row, and rolls it back once `body` has returned or thrown.
    private func whileAnotherConnectionWrites<Result>(
        _ file: URL,
        _ body: () async throws -> Result
    ) async throws -> Result {
        let holder = try takeWriteLock(of: file)
        defer { release(holder) }
        return try await body()
    }

    /// A connection on `file` in an immediate transaction, left open, that deletes every key-value row.
    private func takeWriteLock(of file: URL) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let holder = try DatabaseQueue(path: file.path, configuration: configuration)
        try holder.writeWithoutTransaction { db in
            try db.beginTransaction(.immediate)
            if try db.tableExists("forge_kv") { try db.execute(sql: "DELETE FROM forge_kv") }
        }
        return holder
    }

    /// Rolls back the transaction of `holder`, releasing the lock.
    private func release(_ holder: DatabaseQueue) {
        try? holder.writeWithoutTransaction { db in try db.rollback() }
    }

    /// Makes `file` a database in WAL mode with a table of its own and none of the stores', as another program would.
    private func makeForeignDatabase(_ file: URL) throws -> DatabaseQueue {
        let maker = try DatabaseQueue(path: file.path)
        try maker.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "CREATE TABLE other (x INTEGER)")
        }
        return maker
    }

    /// A store of a fresh database on `file`, whose calls wait a tenth of a second for a lock.
    private func freshStore(_ file: URL) -> SQLiteKVStore {
        SQLiteKVStore(database: SQLiteDatabase(fileURL: file, busyTimeout: .milliseconds(100)), namespace: "store")
    }

    @Test func aFreshDatabaseReadsWhatIsStoredWhileAnotherConnectionHoldsTheWriteLock() async throws {
        try await withTemporaryFolder { folder in
            let file = try storedFile(in: folder)
            try await whileAnotherConnectionWrites(file) { () async throws in
                // Each form of read is the first call of a database of its own.
                #expect(freshStore(file).get(token) == "t0k3n", "get")
                #expect(try freshStore(file).value(for: token) == "t0k3n", "value(for:)")
                #expect(freshStore(file).contains(token), "contains")
                #expect(try freshStore(file).keys() == [other.key, token.key], "keys")
                let asynchronous: any AsyncKVStoring = freshStore(file)
                #expect(try await asynchronous.get(token) == "t0k3n", "async get")
                #expect(try await (freshStore(file) as any AsyncKVStoring).contains(token), "async contains")
                #expect(try await (freshStore(file) as any AsyncKVStoring).keys() == [other.key, token.key])
                #expect(try await asynchronous.keys() == [other.key, token.key], "the same database reads on")

                let database = SQLiteDatabase(fileURL: file, busyTimeout: .milliseconds(100))
                let secrets = SQLiteCrypt(database: database, namespace: "secrets", masterKey: testMasterKey(1))
                #expect(try secrets.get(CryptKey<String>(key: "secret")) == "hidden", "a secret")
                let files = SQLiteFileStore(
                    database: SQLiteDatabase(fileURL: file, busyTimeout: .milliseconds(100)),
                    namespace: "files"
                )
                #expect(try files.contents(at: StoredFilePath(validating: "a.txt")) == Data("contents".utf8), "a file")

                #expect(
                    throws: KVStoreError.writeFailed(key: other.key, underlying: .busy),
                    "a write still waits for the lock, and fails with a typed error"
                ) { try SQLiteKVStore(database: database, namespace: "store").set(other, value: 8) }
            }
        }
    }

    @Test func aFreshDatabaseWithoutTablesReadsNothingWhileAnotherConnectionHoldsTheWriteLock() async throws {
        try await withTemporaryFolder { folder in
            // A database another program made, in WAL mode, with a table of its own and none of the stores'.
            let file = databaseFile(in: folder)
            let maker = try makeForeignDatabase(file)
            let store = freshStore(file)
            try await whileAnotherConnectionWrites(file) { () async throws in
                #expect(try store.value(for: token) == nil, "no table holds no value, and reading it is no failure")
                #expect(!store.contains(token))
                #expect(try store.keys() == [])
                #expect(
                    throws: KVStoreError.writeFailed(key: token.key, underlying: .busy),
                    "a write must make the table, and fails with a typed error once the lock is not released"
                ) { try store.set(token, value: "t0k3n") }
            }
            try store.set(token, value: "t0k3n")
            #expect(try store.value(for: token) == "t0k3n", "once the lock is released, the write makes the table")
            #expect(try freshStore(file).keys() == [token.key])
            try maker.close()
        }
    }
}
