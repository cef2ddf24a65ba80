import ForgeSQLite
import Foundation
import GRDB
import Testing

/// A file the secret stores cannot use fails every call with its operation's typed error naming the key and the
/// path, and is left as it was; a busy database fails with a typed error after the busy timeout.
struct SQLiteCryptForeignFileTests {
    @Test func aFileThatIsNotADatabaseFailsAndIsLeftUntouched() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let content = Data(repeating: 0x5A, count: 8192)
            try content.write(to: file)
            let store = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: testMasterKey())

            let error = try #require(throws: CryptStoreError.self) { try store.get(CryptKey<String>(key: "token")) }
            guard case .readFailed(key: "token", underlying: .other(let message)) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(message.contains(file.path))
            #expect(throws: CryptStoreError.self) { try store.set("s3cr3t", for: CryptKey<String>(key: "token")) }
            #expect(throws: CryptStoreError.self) { try store.keys() }
            #expect(throws: SQLiteStoreError.self) { try store.prepare() }
            #expect(try Data(contentsOf: file) == content)
        }
    }

    @Test func aSecretsTableInAnUnknownShapeFails() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let other = try DatabaseQueue(path: file.path)
            try other.write { db in try db.execute(sql: "CREATE TABLE forge_secrets (key TEXT PRIMARY KEY, value BLOB)")
            }
            let store = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: testMasterKey())

            let error = try #require(throws: SQLiteStoreError.self) { try store.prepare() }
            #expect(error.description.contains("forge_secrets"))
            #expect(throws: CryptStoreError.writeFailed(key: "token", underlying: error.reason)) {
                try store.set("s3cr3t", for: CryptKey<String>(key: "token"))
            }
        }
    }

    @Test func aWriteFailsWithATypedErrorWhileAnotherConnectionHoldsTheWriteLock() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let database = SQLiteDatabase(fileURL: file, busyTimeout: .milliseconds(100))
            let store = SQLiteCrypt(database: database, namespace: "secrets", masterKey: testMasterKey())
            let token = CryptKey<String>(key: "token")
            try store.set("first", for: token)

            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true
            let other = try DatabaseQueue(path: file.path, configuration: configuration)
            try other.writeWithoutTransaction { db in
                try db.beginTransaction(.immediate)
                try db.execute(sql: "DELETE FROM forge_kv")
            }

            #expect(throws: CryptStoreError.writeFailed(key: "token", underlying: .busy)) {
                try store.set("second", for: token)
            }
            #expect(try store.get(token) == "first")

            try other.writeWithoutTransaction { db in try db.rollback() }
            try store.set("third", for: token)
            #expect(try store.get(token) == "third")
        }
    }
}
