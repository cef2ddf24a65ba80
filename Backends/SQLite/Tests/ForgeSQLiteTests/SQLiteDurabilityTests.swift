@testable import ForgeSQLite
import Foundation
import GRDB
import Testing

/// Durability as on the disk stores: WAL throughout, `synchronous = NORMAL` for `.atomic` writes and `FULL` for
/// `.flushed` ones, on the one writer connection that stores of both kinds share.
struct SQLiteDurabilityTests {
    @Test func writesSetTheWriterSynchronousForTheirDurability() async throws {
        try await withTemporaryFolder { folder in
            let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
            let atomic = SQLiteKVStore(database: database, namespace: "atomic")
            let flushed = SQLiteKVStore(database: database, namespace: "flushed", durability: .flushed)

            try flushed.set(KVKey<Int>("count"), value: 1)
            #expect(try writerPragma("synchronous", of: database) == 2)  // FULL
            try atomic.set(KVKey<Int>("count"), value: 1)
            #expect(try writerPragma("synchronous", of: database) == 1)  // NORMAL
            try flushed.removeAll()
            #expect(try writerPragma("synchronous", of: database) == 2)
            #expect(try database.pool().read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        }
    }

    @Test func aTransactionIsFlushedWhenOneOfItsStoresIsFlushed() async throws {
        try await withTemporaryFolder { folder in
            let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
            let atomic = SQLiteKVStore(database: database, namespace: "atomic")
            let files = SQLiteFileStore(database: database, namespace: "files")
            let flushed = SQLiteKVStore(database: database, namespace: "flushed", durability: .flushed)

            try await StorageTransaction.run { transaction in
                try transaction.set(KVKey<Int>("count"), value: 1, in: atomic)
                try transaction.set(KVKey<Int>("count"), value: 1, in: flushed)
                try transaction.save(Data("a".utf8), to: "a.txt", in: files)
            }
            #expect(try writerPragma("synchronous", of: database) == 2)  // FULL
            try await StorageTransaction.run { transaction in
                try transaction.set(KVKey<Int>("count"), value: 2, in: atomic)
                try transaction.save(Data("b".utf8), to: "b.txt", in: files)
            }
            #expect(try writerPragma("synchronous", of: database) == 1)  // NORMAL
        }
    }

    @Test func theWriterSettingsReadBackWhatEachDurabilityCommitsWith() async throws {
        try await withTemporaryFolder { folder in
            let database = SQLiteDatabase(fileURL: databaseFile(in: folder))

            #expect(
                try database.writerSettings(for: .flushed) == SQLiteWriterSettings(journalMode: "wal", synchronous: 2)
            )
            #expect(
                try database.writerSettings(for: .atomic) == SQLiteWriterSettings(journalMode: "wal", synchronous: 1)
            )
            let readOnly = SQLiteDatabase(fileURL: databaseFile(in: folder), readOnly: true)
            #expect(throws: SQLiteStoreError.self) { try readOnly.writerSettings(for: .atomic) }
            try database.close()
            #expect(throws: SQLiteStoreError.closed(path: database.path)) { try database.writerSettings(for: .atomic) }
        }
    }

    /// The value of `pragma` on the writer connection, as the last write left it.
    private func writerPragma(_ pragma: String, of database: SQLiteDatabase) throws -> Int? {
        try database.pool().writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA \(pragma)") }
    }
}
