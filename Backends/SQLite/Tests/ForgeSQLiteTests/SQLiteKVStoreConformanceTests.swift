import ForgeSQLite
import ForgeStorageTesting
import Foundation
import Testing

/// SQLiteKVStore passes the whole conformance suite, sync and async, alone and seen through the seam: a second handle
/// is a store of a second `SQLiteDatabase` on the same file (as another process would open it), the neighbour another
/// namespace in the same database.
struct SQLiteKVStoreConformanceTests {
    @Test(arguments: Seam.allCases)
    func passesTheConformanceSuites(seam: Seam) async throws {
        try await withTemporaryFolder { folder in
            await KVStoringConformance.runInBothForms {
                let file = databaseFile(in: folder)
                let database = SQLiteDatabase(fileURL: file)
                return StoreSubject(
                    seam.settings(SQLiteKVStore(database: database, namespace: "store")),
                    reopen: { seam.settings(SQLiteKVStore(fileURL: file, namespace: "store")) },
                    neighbour: SQLiteKVStore(database: database, namespace: "neighbour")
                )
            }
        }
    }

    /// Flushed stores, whose second handle shares the database: the writer connection switches `synchronous` between
    /// the stores' durabilities.
    @Test func passesTheConformanceSuiteFlushedOnASharedDatabase() async throws {
        try await withTemporaryFolder { folder in
            await KVStoringConformance.run(makeSubject: {
                let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
                return KVStoringConformance.Subject(
                    SQLiteKVStore(database: database, namespace: "store", durability: .flushed),
                    reopen: { SQLiteKVStore(database: database, namespace: "store") },
                    neighbour: SQLiteKVStore(database: database, namespace: "neighbour", durability: .flushed)
                )
            })
        }
    }
}
