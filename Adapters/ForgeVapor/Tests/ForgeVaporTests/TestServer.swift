import ForgeKVStore
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

/// The PostgreSQL server the tests run against: the one `FORGE_POSTGRES_URL` names, as `scripts/postgres-for-tests`
/// sets it; the PostgreSQL runs are skipped without it, as the Backends tests are.
enum TestServer {
    /// The server's URL, or nil when the tests are to be skipped.
    static let url: String? = ProcessInfo.processInfo.environment["FORGE_POSTGRES_URL"]

    /// Why the PostgreSQL runs are skipped when no server is named.
    static let skipReason: Comment =
        "FORGE_POSTGRES_URL is not set: run `scripts/postgres-for-tests swift test --package-path Adapters/ForgeVapor`"

    /// A new client of the server, not running yet.
    static func makeClient() throws -> PostgresClient {
        PostgresClient(configuration: try PostgresClient.Configuration(url: try #require(url)))
    }

    /// Runs `body` with a client of the server that runs meanwhile, and stops it after.
    static func withClient<Result: Sendable>(_ body: (PostgresClient) async throws -> Result) async throws -> Result {
        let client = try makeClient()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(client)
        }
    }

    /// Runs `body` with `count` stores on one new namespace, each on a client of its own (as on servers of their own)
    /// and reading `clock`, and removes the namespace's values after, whether `body` succeeded or not.
    static func withStores<Result: Sendable>(
        _ count: Int,
        clock: any ExpiryClock,
        _ body: ([PostgresKVStore]) async throws -> Result
    ) async throws -> Result {
        let namespace = "vapor-test-\(UUID().uuidString)"
        return try await withClients(count) { clients in
            let stores = clients.map {
                PostgresKVStore(client: $0, namespace: namespace, expiry: KVExpiry(clock: clock))
            }
            do {
                let result = try await body(stores)
                try await stores[0].removeAll()
                return result
            } catch {
                try? await stores[0].removeAll()
                throw error
            }
        }
    }

    /// Runs `body` with `count` running clients.
    private static func withClients<Result: Sendable>(
        _ count: Int,
        _ body: ([PostgresClient]) async throws -> Result,
        clients: [PostgresClient] = []
    ) async throws -> Result {
        if clients.count == count { return try await body(clients) }
        return try await withClient { client in try await withClients(count, body, clients: clients + [client]) }
    }
}
