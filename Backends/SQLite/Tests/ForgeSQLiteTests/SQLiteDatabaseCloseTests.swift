@testable import ForgeSQLite
import Foundation
import Testing

/// `SQLiteDatabase.close()` closes the connections at once, for a service's shutdown: the file's log is checkpointed
/// and removed, as when the last connection closes, and every later call fails with a typed error naming the path.
struct SQLiteDatabaseCloseTests {
    private let key = KVKey<String>("token")

    @Test func closingReleasesTheFileAndFailsEveryLaterCall() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let database = SQLiteDatabase(fileURL: file)
            let store = SQLiteKVStore(database: database, namespace: "store")
            try store.set(key, value: "t0k3n")
            #expect(store.get(key) == "t0k3n")
            #expect(
                FileManager.default.fileExists(atPath: file.path + "-wal"),
                "an open database in WAL mode has a log"
            )

            try database.close()
            #expect(
                !FileManager.default.fileExists(atPath: file.path + "-wal"),
                "the last connection to close checkpoints the log and removes it: none is left open"
            )

            let closed = SQLiteStoreError.closed(path: file.path).reason
            #expect(throws: KVStoreError.readFailed(key: key.key, underlying: closed)) { try store.value(for: key) }
            #expect(store.get(key) == nil, "get reads the failure as nil, as it reads every failure")
            #expect(throws: KVStoreError.writeFailed(key: key.key, underlying: closed)) {
                try store.set(key, value: "again")
            }
            #expect(throws: KVStoreError.listFailed(underlying: closed)) { try store.keys() }
            #expect(throws: SQLiteStoreError.closed(path: file.path)) { try database.prepare() }
            try database.close()

            let reopened = SQLiteKVStore(fileURL: file, namespace: "store")
            #expect(try reopened.value(for: key) == "t0k3n", "a new database on the file reads what was stored")
        }
    }

    @Test func aGetThatFailsIsReportedAsAFailedReadNotAsNothingStored() async throws {
        try await withTemporaryFolder { folder in
            let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
            let events = Locked<[StoreEvent]>([])
            let store = SQLiteKVStore(database: database, namespace: "store")
                .reportingEvents(label: "store") { event in events.withLock { $0.append(event) } }
            try store.set(key, value: "t0k3n")
            try database.close()
            events.withLock { $0.removeAll() }

            #expect(store.get(key) == nil, "get answers nil for a read that fails, as documented")
            let reads = events.withLock { $0 }.filter { $0.operation == .read && $0.target == key.key }
            #expect(reads.count == 1)
            guard case .call(let call)? = reads.first?.kind, case .failed = call.outcome else {
                Issue.record("the failed read is reported as a failure: \(reads)")
                return
            }
        }
    }

    @Test func aDatabaseNeverOpenedClosesAndOpensNoMore() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let database = SQLiteDatabase(fileURL: file)
            try database.close()
            #expect(throws: SQLiteStoreError.closed(path: file.path)) { try database.prepare() }
            let secrets = SQLiteCrypt(database: database, namespace: "secrets", masterKey: testMasterKey(2))
            #expect(throws: CryptStoreError.self) { try secrets.set("s", for: CryptKey<String>(key: "secret")) }
            #expect(!FileManager.default.fileExists(atPath: file.path), "nothing made the file")
        }
    }
}
