import ForgeSQLite
import ForgeStorageTesting
import Foundation
import Testing

/// `BoundedCacheConformance` on `SQLiteFileStore`: with calls of eight tasks at once, the cache ends within its budget
/// and counts exactly what the database holds.
struct SQLiteFileStoreCacheConcurrencyTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func keepsItsBudgetUnderConcurrentCalls(seed: UInt64) async throws {
        try await withTemporaryFolder { folder in
            let database = SQLiteDatabase(fileURL: folder.appendingPathComponent("cache.sqlite"))
            await BoundedCacheConformance.run(seed: seed) {
                SQLiteFileStore(database: database, namespace: UUID().uuidString)
            }
        }
    }
}
