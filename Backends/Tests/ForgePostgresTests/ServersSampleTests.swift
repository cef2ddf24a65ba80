import ForgeCrypt
import ForgeFileStore
import ForgeKVStore
import ForgePostgres
import Foundation
import Testing

/// The keys the servers sample names, as an app declares them.
private enum TaskKeys {
    static let taskCount = KVKey<Int>("taskflow.taskCount")
}

/// The secret the servers sample names, as an app declares it.
private enum AuthKeys {
    static let accessToken = CryptKey<String>(key: "auth.access")
}

/// The sample for PostgreSQL, which the Servers article and the ForgePostgres catalog quote from here, run against the
/// test server.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct ServersSampleTests {
    @Test func theSampleUsesTheThreeStoresOnAClientTheCallerRuns() async throws {
        try await TestServer.withClient { client in
            let namespace = "readme-\(UUID().uuidString)"
            // In production: `.keyFile(url)`, `.passphrase(text)`, or a key from your secrets manager.
            let masterKey = MasterKey.symmetric(SymmetricKey(size: .bits256))

            // `client`: a PostgresClient your service group runs (`client.run()`).
            let settings = PostgresKVStore(client: client, namespace: namespace)
            let files = PostgresFileStore(client: client, namespace: namespace)
            let secrets = PostgresCrypt(client: client, namespace: namespace, masterKey: masterKey)

            try await settings.set(TaskKeys.taskCount, value: 42)
            try await files.save(Data("avatar".utf8), to: "avatars/ada.jpg")
            try await secrets.set("s3cr3t", for: AuthKeys.accessToken)

            #expect(try await settings.value(for: TaskKeys.taskCount) == 42)
            #expect(try await files.load("avatars/ada.jpg") == Data("avatar".utf8))
            #expect(try await secrets.get(AuthKeys.accessToken) == "s3cr3t")
            try await settings.removeAll()
            try await files.deleteAll()
            try await secrets.deleteAll()
        }
    }

    @Test func theSampleRunsTheClientItsStoresBorrow() async throws {
        let url = try #require(TestServer.url)
        let namespace = "readme-\(UUID().uuidString)"

        // `url`: "postgres://user@host:5432/database?sslmode=verify-full", from your configuration.
        let client = PostgresClient(configuration: try PostgresClient.Configuration(url: url))
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await client.run() }  // the connection pool, until the group is cancelled
            let settings = PostgresKVStore(client: client, namespace: namespace)
            try await settings.set(TaskKeys.taskCount, value: 42)
            let count = try await settings.get(TaskKeys.taskCount)

            #expect(count == 42)
            try await settings.removeAll()

            group.cancelAll()  // stops the client, once the stores' calls are done
        }
    }
}
