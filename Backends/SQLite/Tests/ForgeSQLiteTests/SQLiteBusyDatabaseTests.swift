import ForgeSQLite
import Foundation
import GRDB
import Testing

/// A database another connection keeps locked is waited for up to the busy timeout, then the call fails with its
/// typed error, whose reason is `.busy`; reads go on beside the lock (WAL).
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

            #expect(throws: KVStoreError.writeFailed(key: "count", underlying: .busy)) {
                try store.set(KVKey<Int>("count"), value: 2)
            }
            #expect(throws: KVStoreError.removeAllFailed(underlying: .busy)) { try store.removeAll() }
            #expect(store.get(KVKey<Int>("count")) == 1)

            try other.writeWithoutTransaction { db in try db.rollback() }
            try store.set(KVKey<Int>("count"), value: 3)
            #expect(store.get(KVKey<Int>("count")) == 3)
        }
    }
}
