import ForgeSQLite
import Foundation
import GRDB
import Testing

/// A database another connection keeps locked is waited for up to the busy timeout, then the call fails with its
/// typed error; reads go on beside the lock (WAL).
struct SQLiteBusyDatabaseTests {
    @Test func aWriteFailsWithATypedErrorWhileAnotherConnectionHoldsTheWriteLock() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let database = SQLiteDatabase(fileURL: file, busyTimeout: .milliseconds(100))
            let store = SQLiteKVStore(database: database, namespace: "store")
            try store.set(KVKey<Int>("count"), value: 1)

            // Another connection, as another process would hold it, in a write transaction left open.
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true
            let other = try DatabaseQueue(path: file.path, configuration: configuration)
            try other.writeWithoutTransaction { db in
                try db.beginTransaction(.immediate)
                try db.execute(sql: "DELETE FROM forge_kv")
            }

            let error = try #require(throws: KVStoreError.self) { try store.set(KVKey<Int>("count"), value: 2) }
            guard case .writeFailed(key: "count", underlying: .other(let message)) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(message.contains(file.path))
            #expect(message.contains("locked"))
            #expect(throws: KVStoreError.self) { try store.removeAll() }
            #expect(store.get(KVKey<Int>("count")) == 1)

            try other.writeWithoutTransaction { db in try db.rollback() }
            try store.set(KVKey<Int>("count"), value: 3)
            #expect(store.get(KVKey<Int>("count")) == 3)
        }
    }
}
