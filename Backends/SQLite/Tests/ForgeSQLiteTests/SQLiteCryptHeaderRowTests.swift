import ForgeSQLite
import Foundation
import GRDB
import Testing

/// The namespace's header row: written once, written back by a write when removed, and never written over: a store
/// whose header was replaced by another store's writes nothing.
struct SQLiteCryptHeaderRowTests {
    @Test func aRemovedHeaderIsWrittenBackByAWrite() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let key = testMasterKey()
            let store = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: key)
            try store.prepare()
            let other = try DatabaseQueue(path: file.path)
            try other.write { db in try db.execute(sql: "DELETE FROM forge_secrets") }

            try store.set("s3cr3t", for: CryptKey<String>(key: "token"))
            #expect(try headerCount(in: other) == 1)
            let reopened = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: key)
            #expect(try reopened.get(CryptKey<String>(key: "token")) == "s3cr3t")
        }
    }

    @Test func aStoreWhoseHeaderWasReplacedWritesNothing() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let first = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: testMasterKey())
            try first.prepare()
            let other = try DatabaseQueue(path: file.path)
            try other.write { db in try db.execute(sql: "DELETE FROM forge_secrets") }
            let second = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: testMasterKey())
            try second.set("second's", for: CryptKey<String>(key: "token"))

            #expect(
                throws: CryptStoreError.vaultReplaced(path: "SQLite database '\(file.path)', namespace 'secrets'")
            ) {
                try first.set("first's", for: CryptKey<String>(key: "token"))
            }
            #expect(try second.get(CryptKey<String>(key: "token")) == "second's")
        }
    }

    @Test func aStoreWhoseHeaderWasReplacedRemovesNothing() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let first = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: testMasterKey())
            try first.prepare()
            let other = try DatabaseQueue(path: file.path)
            try other.write { db in try db.execute(sql: "DELETE FROM forge_secrets") }
            let second = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: testMasterKey())
            try second.set("second's", for: CryptKey<String>(key: "token"))

            let replaced = CryptStoreError.vaultReplaced(path: "SQLite database '\(file.path)', namespace 'secrets'")
            #expect(throws: replaced) { try first.delete(CryptKey<String>(key: "token")) }
            #expect(throws: replaced) { try first.deleteAll() }
            #expect(try second.get(CryptKey<String>(key: "token")) == "second's")
        }
    }

    @Test func aWrongMasterKeyWritesNothing() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            try SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: testMasterKey())
                .set("s3cr3t", for: CryptKey<String>(key: "token"))
            let other = try DatabaseQueue(path: file.path)
            let before = try other.read { db in try Row.fetchAll(db, sql: "SELECT * FROM forge_secrets ORDER BY item") }

            let wrong = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: testMasterKey())
            #expect(throws: CryptStoreError.self) { try wrong.set("other", for: CryptKey<String>(key: "token")) }
            #expect(throws: CryptStoreError.self) { try wrong.deleteAll() }
            let after = try other.read { db in try Row.fetchAll(db, sql: "SELECT * FROM forge_secrets ORDER BY item") }
            #expect(after == before)
        }
    }

    @Test func aHeaderRowThatIsNotAHeaderIsACorruptNamespace() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let key = testMasterKey()
            try SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: key).prepare()
            let other = try DatabaseQueue(path: file.path)
            try other.write { db in
                try db.execute(sql: "UPDATE forge_secrets SET sealed = X'00FF' WHERE item = 'header'")
            }

            let store = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: key)
            let error = try #require(throws: CryptStoreError.self) { try store.keys() }
            guard case .corruptVault(path: let path, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(path.contains(file.path))
        }
    }

    /// The number of header rows in the file.
    private func headerCount(in queue: DatabaseQueue) throws -> Int {
        try queue.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM forge_secrets WHERE item = 'header'") ?? 0
        }
    }
}
