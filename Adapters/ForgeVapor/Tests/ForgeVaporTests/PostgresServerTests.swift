import ForgeKVStore
import ForgePostgres
import Testing

/// The PostgreSQL runs of every test need a server: this suite says, by being skipped, that they did not run.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresServerTests {
    @Test func theServerIsReachable() async throws {
        try await TestServer.withClient { client in
            try await PostgresKVStore(client: client, namespace: "vapor-test-reachable").prepare()
        }
        #expect(Backend.available.contains(.postgres))
    }
}
