import ForgeKVStore
import ForgePostgres
import PostgresNIO
import Testing

/// The keys README's sample names, as an app declares them.
private enum TaskKeys {
    static let taskCount = KVKey<Int>("taskflow.taskCount")
}

/// README's sample for PostgreSQL, which README quotes from here, run against the test server.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct ReadmeSampleTests {
    @Test func theSampleStoresAValueOnAClientTheCallerRuns() async throws {
        try await TestServer.withClient { client in
            // `client`: a PostgresClient your service group runs (`client.run()`).
            let settings = PostgresKVStore(client: client, namespace: "taskflow")
            try await settings.set(TaskKeys.taskCount, value: 42)

            #expect(try await settings.value(for: TaskKeys.taskCount) == 42)
            try await settings.removeAll()
        }
    }
}
