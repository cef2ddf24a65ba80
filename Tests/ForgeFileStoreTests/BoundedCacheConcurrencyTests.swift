import ForgeFileStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// `BoundedCacheConformance`: with calls of eight tasks at once, the cache on the twin and on the disk store ends
/// within its budget and counts exactly what the store holds.
struct BoundedCacheConcurrencyTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func theTwinKeepsItsBudgetUnderConcurrentCalls(seed: UInt64) async {
        await BoundedCacheConformance.run(seed: seed) { InMemoryFileStore() }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func theDiskStoreKeepsItsBudgetUnderConcurrentCalls(seed: UInt64) async throws {
        try await withTemporaryFolder { folder in
            await BoundedCacheConformance.run(seed: seed) {
                DiskFileStore(directory: .custom(folder), namespace: UUID().uuidString)
            }
        }
    }
}
