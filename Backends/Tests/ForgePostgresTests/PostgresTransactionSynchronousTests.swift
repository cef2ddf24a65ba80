import ForgeKVStore
import ForgePostgres
import Testing

/// The synchronous `StorageTransaction.run` cannot wait for the server: it throws, and applies nothing.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresTransactionSynchronousTests {
    @Test func theSynchronousFormThrowsCommitNeedsAwaitAndAppliesNothing() async throws {
        try await TestServer.withStores { (stores) async throws in
            let store = stores[0]
            try await store.set(KVKey<Int>("kept"), value: 1)
            #expect(throws: StorageTransactionError.commitNeedsAwait("PostgresTransactionRunner")) {
                try Self.runSynchronously { transaction in
                    try transaction.set(KVKey<Int>("added"), value: 2, in: store)
                    try transaction.remove(KVKey<Int>("kept"), in: store)
                }
            }
            #expect(try await store.keys() == ["kept"])
            #expect(try await store.get(KVKey<Int>("kept")) == 1)
        }
    }

    /// Calls the synchronous form, which an `async` caller would not pick.
    private static func runSynchronously(_ body: (StorageTransaction) throws -> Void) throws {
        try StorageTransaction.run(body)
    }
}
