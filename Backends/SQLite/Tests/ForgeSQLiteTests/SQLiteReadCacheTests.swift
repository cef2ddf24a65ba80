import ForgeSQLite
import Foundation
import Testing

/// A read answered from the cache is never older than what another connection, or another store on the database,
/// wrote before the read began.
struct SQLiteReadCacheTests {
    @Test func aCachedValueGivesWayToEveryWriteOfAnotherConnection() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let reader = SQLiteKVStore(fileURL: file, namespace: "store")
            let writer = SQLiteKVStore(fileURL: file, namespace: "store")
            let key = KVKey<Int>("count")

            for value in 0..<20 {
                try writer.set(key, value: value)
                #expect(reader.get(key) == value)
                #expect(reader.get(key) == value)  // the second read from the cache
            }
            try writer.remove(key)
            #expect(reader.get(key) == nil)
            #expect(!reader.contains(key))
        }
    }

    @Test func aCachedValueGivesWayToEveryWriteOfAnotherStoreOnTheDatabase() async throws {
        try await withTemporaryFolder { folder in
            let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
            let reader = SQLiteKVStore(database: database, namespace: "store")
            let writer = SQLiteKVStore(database: database, namespace: "store", durability: .flushed)
            let key = KVKey<String>("theme")

            #expect(reader.get(key) == nil)
            try writer.set(key, value: "dark")
            #expect(reader.get(key) == "dark")
            try writer.removeAll()
            #expect(reader.get(key) == nil)
        }
    }

    /// Reads in one task while another writes back-to-back: once the writes end, every read sees the last.
    @Test func readsDuringWritesEndOnTheLastValue() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let database = SQLiteDatabase(fileURL: file)
            let reader = SQLiteKVStore(database: database, namespace: "store")
            let writer = SQLiteKVStore(database: database, namespace: "store")
            let other = SQLiteKVStore(fileURL: file, namespace: "store")
            let key = KVKey<Int>("count")

            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { for value in 0..<200 { try writer.set(key, value: value) } }
                group.addTask { for _ in 0..<400 { _ = reader.get(key) } }
                try await group.waitForAll()
            }
            #expect(reader.get(key) == 199)
            try other.set(key, value: 200)
            #expect(reader.get(key) == 200)
        }
    }
}
