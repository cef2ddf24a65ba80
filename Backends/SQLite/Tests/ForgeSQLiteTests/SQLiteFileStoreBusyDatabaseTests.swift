import ForgeSQLite
import Foundation
import GRDB
import Testing

/// A database another connection keeps locked is waited for up to the busy timeout, then a save fails with its typed
/// error naming the path, whose reason is `.busy`; loads and listings go on beside the lock (WAL).
struct SQLiteFileStoreBusyDatabaseTests {
    @Test func aSaveFailsWithATypedErrorWhileAnotherConnectionHoldsTheWriteLock() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let database = SQLiteDatabase(fileURL: file, busyTimeout: .milliseconds(100))
            let store = SQLiteFileStore(database: database, namespace: "store")
            try await store.save(Data("1".utf8), to: "docs/a.txt")

            // Another connection, as another process would hold it, in a write transaction left open.
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true
            let other = try DatabaseQueue(path: file.path, configuration: configuration)
            try await other.writeWithoutTransaction { db in
                try db.beginTransaction(.immediate)
                try db.execute(sql: "DELETE FROM forge_files")
            }

            await #expect(throws: FileStoreError.writeFailed(path: "docs/a.txt", reason: .busy)) {
                try await store.save(Data("2".utf8), to: "docs/a.txt")
            }
            await #expect(throws: FileStoreError.deleteFailed(path: "docs/a.txt", reason: .busy)) {
                try await store.delete("docs/a.txt")
            }
            await #expect(throws: FileStoreError.deleteFailed(path: "", reason: .busy)) { try await store.deleteAll() }
            #expect(try await store.load("docs/a.txt") == Data("1".utf8))
            #expect(try await store.list(in: "docs") == ["docs/a.txt"])

            try await other.writeWithoutTransaction { db in try db.rollback() }
            try await store.save(Data("3".utf8), to: "docs/a.txt")
            #expect(try await store.load("docs/a.txt") == Data("3".utf8))
        }
    }
}
