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

    /// Another connection's write between two of the database's own writes is seen by the next read.
    @Test func anotherConnectionsWriteBetweenOwnWritesIsSeen() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let store = SQLiteKVStore(database: SQLiteDatabase(fileURL: file), namespace: "store")
            let other = SQLiteKVStore(fileURL: file, namespace: "store")
            let read = KVKey<Int>("read")
            let written = KVKey<Int>("written")

            for value in 0..<30 {
                try store.set(written, value: value)
                #expect(store.get(read) == (value == 0 ? nil : value - 1))
                try other.set(read, value: value)
                try store.set(written, value: value + 1)
                #expect(store.get(read) == value)
                #expect(store.get(written) == value + 1)
            }
        }
    }

    /// A seeded sequence of writes of the store, of a transaction of it and of another connection, each read compared
    /// with what was last written.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func readsMatchTheLastWriteOfEitherConnection(seed: UInt64) async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let store = SQLiteKVStore(database: SQLiteDatabase(fileURL: file), namespace: "store")
            let other = SQLiteKVStore(fileURL: file, namespace: "store")
            let keys = (0..<4).map { KVKey<Int>("key-\($0)") }
            var expected: [String: Int] = [:]
            var random = SplitMix64(seed: seed)

            for step in 0..<400 {
                let key = keys[Int(random.next() % 4)]
                switch random.next() % 6 {
                case 0:
                    try store.set(key, value: step)
                    expected[key.key] = step
                case 1:
                    try other.set(key, value: step)
                    expected[key.key] = step
                case 2:
                    try store.remove(key)
                    expected[key.key] = nil
                case 3:
                    try other.remove(key)
                    expected[key.key] = nil
                case 4:
                    let second = keys[Int(random.next() % 4)]
                    try StorageTransaction.run { transaction in
                        try transaction.set(key, value: step, in: store)
                        try transaction.set(second, value: step + 1, in: store)
                    }
                    expected[key.key] = step
                    expected[second.key] = step + 1
                default:
                    #expect(store.get(key) == expected[key.key], "seed \(seed), step \(step)")
                }
            }
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
