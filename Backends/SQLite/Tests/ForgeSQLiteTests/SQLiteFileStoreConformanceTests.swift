import ForgeSQLite
import ForgeStorageTesting
import Foundation
import Testing

/// SQLiteFileStore passes the whole conformance suite, sync and async, alone and seen through the seam: a second handle
/// is a store of a second `SQLiteDatabase` on the same file (as another process would open it), the neighbour another
/// namespace in the same database.
struct SQLiteFileStoreConformanceTests {
    @Test(arguments: Seam.allCases)
    func passesTheConformanceSuite(seam: Seam) async throws {
        try await withTemporaryFolder { folder in
            await FileStoringConformance.run(makeSubject: {
                let file = databaseFile(in: folder)
                let database = SQLiteDatabase(fileURL: file)
                return FileStoringConformance.Subject(
                    seam.files(SQLiteFileStore(database: database, namespace: "store")),
                    reopen: { seam.files(SQLiteFileStore(fileURL: file, namespace: "store")) },
                    neighbour: SQLiteFileStore(database: database, namespace: "neighbour")
                )
            })
        }
    }

    @Test(arguments: Seam.allCases)
    func passesTheAsyncConformanceSuite(seam: Seam) async throws {
        try await withTemporaryFolder { folder in
            await AsyncFileStoringConformance.run(makeSubject: {
                let file = databaseFile(in: folder)
                let database = SQLiteDatabase(fileURL: file)
                return AsyncFileStoringConformance.Subject(
                    seam.files(SQLiteFileStore(database: database, namespace: "store")),
                    reopen: { seam.files(SQLiteFileStore(fileURL: file, namespace: "store")) },
                    neighbour: SQLiteFileStore(database: database, namespace: "neighbour")
                )
            })
        }
    }

    /// Flushed stores beside a key-value store's rows: the second handle shares the database, and the writer
    /// connection switches `synchronous` between the stores' durabilities.
    @Test func passesTheConformanceSuiteFlushedOnASharedDatabase() async throws {
        try await withTemporaryFolder { folder in
            await FileStoringConformance.run(makeSubject: {
                let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
                try SQLiteKVStore(database: database, namespace: "store").set(KVKey<Int>("count"), value: 1)
                return FileStoringConformance.Subject(
                    SQLiteFileStore(database: database, namespace: "store", durability: .flushed),
                    reopen: { SQLiteFileStore(database: database, namespace: "store") },
                    neighbour: SQLiteFileStore(database: database, namespace: "neighbour", durability: .flushed)
                )
            })
        }
    }
}
