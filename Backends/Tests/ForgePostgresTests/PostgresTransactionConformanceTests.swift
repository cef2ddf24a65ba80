import ForgeKVStore
import ForgePostgres
import ForgeStorageTesting
import Testing

/// The behaviour every store that joins a `StorageTransaction` shares (ForgeStorageTesting's suite), run against
/// `PostgresKVStore`, alone and wrapped for events and for faults, each check on a fresh namespace.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresTransactionConformanceTests {
    /// How the store is seen.
    enum Wrapping: String, CaseIterable, Sendable {
        case none, events, faults
    }

    @Test(arguments: TransactionConformance.checks, Wrapping.allCases)
    func transactionsAreAllOrNothing(check: TransactionConformance.Check, wrapping: Wrapping) async throws {
        try await TestServer.withStores { (stores) async throws in
            let subject =
                switch wrapping {
                case .none: TransactionConformance.Subject(keyValues: stores[0])
                case .events: TransactionConformance.Subject(keyValues: stores[0].reportingEvents { _ in })
                case .faults: TransactionConformance.Subject(keyValues: stores[0].injectingFaults())
                }
            try await check.run(on: subject)
        }
    }
}
