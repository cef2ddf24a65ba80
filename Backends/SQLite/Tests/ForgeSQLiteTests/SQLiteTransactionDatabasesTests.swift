import ForgeSQLite
import Foundation
import Testing

/// The stores of one `SQLiteDatabase` share transactions, whatever their kinds and namespaces; a store of another
/// `SQLiteDatabase` (even on the same file) or an in-memory twin cannot join them, and a transaction that tries applies
/// nothing.
struct SQLiteTransactionDatabasesTests {
    @Test func theStoresOfOneDatabaseReturnItAsTheirRunner() async throws {
        try await withTemporaryFolder { folder in
            let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
            let runners: [any TransactionRunner] = [
                SQLiteKVStore(database: database, namespace: "settings").transactionRunner,
                SQLiteKVStore(database: database, namespace: "cache", durability: .flushed).transactionRunner,
                SQLiteFileStore(database: database, namespace: "attachments").transactionRunner,
                SQLiteCrypt(database: database, namespace: "auth", masterKey: testMasterKey()).transactionRunner,
            ]
            #expect(runners.allSatisfy { $0 === database })
        }
    }

    @Test func aStoreOfAnotherDatabaseOnTheSameFileCannotJoin() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let settings = SQLiteKVStore(database: SQLiteDatabase(fileURL: file), namespace: "settings")
            let files = SQLiteFileStore(database: SQLiteDatabase(fileURL: file), namespace: "attachments")

            let refusal = StorageTransactionError.storesOfDifferentDatabases("SQLiteDatabase", "SQLiteDatabase")
            await #expect(throws: refusal) {
                try await StorageTransaction.run { transaction in
                    try transaction.set(KVKey<Int>("count"), value: 1, in: settings)
                    try transaction.save(Data("a".utf8), to: "a.txt", in: files)
                }
            }
            let (keys, paths) = (try settings.keys(), try await files.list(in: ""))
            #expect(keys.isEmpty && paths.isEmpty, "nothing of the transaction is applied")
        }
    }

    /// Whichever store is staged first, the other cannot join.
    @Test(arguments: [false, true])
    func anInMemoryTwinCannotJoinAnSQLiteTransaction(twinFirst: Bool) async throws {
        try await withTemporaryFolder { folder in
            let settings = SQLiteKVStore(fileURL: databaseFile(in: folder), namespace: "settings")
            let twin = InMemoryKVStore()
            let runners = ["SQLiteDatabase", "InMemoryTransactionRunner"]
            let refusal = StorageTransactionError.storesOfDifferentDatabases(
                runners[twinFirst ? 1 : 0],
                runners[twinFirst ? 0 : 1]
            )

            await #expect(throws: refusal) {
                try await StorageTransaction.run { transaction in
                    if twinFirst { try transaction.set(KVKey<Int>("count"), value: 1, in: twin) }
                    try transaction.set(KVKey<Int>("count"), value: 1, in: settings)
                    if !twinFirst { try transaction.set(KVKey<Int>("count"), value: 1, in: twin) }
                }
            }
            let keys = try settings.keys()
            #expect(keys.isEmpty && twin.count == 0, "nothing of the transaction is applied")
        }
    }
}
