import ForgeKVStore
import ForgePostgres
import ForgeStorageTesting
import Testing

/// The behaviour every store that joins a `StorageTransaction` shares (ForgeStorageTesting's suite), run against
/// `PostgresKVStore`, each check on a fresh namespace.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresTransactionConformanceTests {
    @Test(arguments: TransactionConformance.checks)
    func transactionsAreAllOrNothing(check: TransactionConformance.Check) async throws {
        try await TestServer.withStores { (stores) async throws in
            try await check.run(on: TransactionConformance.Subject(keyValues: stores[0]))
        }
    }
}
