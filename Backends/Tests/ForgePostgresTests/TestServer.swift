import ForgeKVStore
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

/// The server the tests run against: the one `FORGE_POSTGRES_URL` names (`postgres://user[:password]@host:port/db`),
/// as `scripts/postgres-for-tests` sets it.
enum TestServer {
    /// The server's URL, or nil when the tests are to be skipped.
    static let url: String? = ProcessInfo.processInfo.environment["FORGE_POSTGRES_URL"]

    /// Why the tests are skipped when no server is named.
    static let skipReason: Comment =
        "FORGE_POSTGRES_URL is not set: run `scripts/postgres-for-tests swift test --package-path Backends`"

    /// A client configuration for the server, as the URL's user or as `username`.
    static func configuration(username: String? = nil) throws -> PostgresClient.Configuration {
        var configuration = try PostgresClient.Configuration(url: try #require(url, "FORGE_POSTGRES_URL is not set"))
        if let username { configuration.username = username }
        return configuration
    }

    /// A configuration of port 1 on the loopback, where nothing listens: every connection is refused.
    static func unreachableConfiguration() throws -> PostgresClient.Configuration {
        let configuration = try configuration()
        return PostgresClient.Configuration(
            host: "127.0.0.1",
            port: 1,
            username: configuration.username,
            password: configuration.password,
            database: configuration.database,
            tls: .disable
        )
    }

    /// How long the suites' stores wait for a connection: longer than a store's default.
    ///
    /// The tests run at once on a loaded machine, and the concurrency checks ask for many connections of one pool at a
    /// time. A test of the wait itself gives its store its own.
    static let connectionWait = Duration.seconds(30)

    /// Runs `body` with a client of the server that runs meanwhile, and stops it after.
    static func withClient<Result: Sendable>(
        configuration: PostgresClient.Configuration? = nil,
        _ body: (PostgresClient) async throws -> Result
    ) async throws -> Result {
        let client = PostgresClient(configuration: try configuration ?? Self.configuration())
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(client)
        }
    }

    /// Runs `body` with `count` stores on one new namespace, each with its own client, and removes the namespace's
    /// values after, whether `body` succeeded or not.
    static func withStores(
        _ count: Int = 1,
        tableName: String = "forge_kv",
        _ body: ([PostgresKVStore]) async throws -> Void
    ) async throws {
        let namespace = "test-\(UUID().uuidString)"
        try await withClients(count) { clients in
            let stores = clients.map {
                PostgresKVStore(client: $0, namespace: namespace, tableName: tableName, connectionWait: connectionWait)
            }
            do {
                try await body(stores)
            } catch {
                try? await stores[0].removeAll()
                throw error
            }
            try await stores[0].removeAll()
        }
    }

    /// Runs `body` with `count` running clients.
    static func withClients(
        _ count: Int,
        _ body: ([PostgresClient]) async throws -> Void,
        clients: [PostgresClient] = []
    ) async throws {
        if clients.count == count { return try await body(clients) }
        try await withClient { client in try await withClients(count, body, clients: clients + [client]) }
    }
}

extension TestServer {
    /// Runs `body` while a transaction of `admin` holds the locks `statement` takes, giving it that transaction's
    /// backend (process id); the locks go when `body` returns.
    static func whileLocked<Result: Sendable>(
        by statement: PostgresQuery,
        admin: PostgresClient,
        _ body: (_ holder: Int32) async throws -> Result
    ) async throws -> Result {
        try await admin.withConnection { connection in
            _ = try await connection.query("BEGIN", logger: testLogger)
            do {
                _ = try await connection.query(statement, logger: testLogger)
                var holder: Int32 = 0
                for try await pid in try await connection.query("SELECT pg_backend_pid()", logger: testLogger)
                    .decode(Int32.self)
                {
                    holder = pid
                }
                let result = try await body(holder)
                _ = try await connection.query("ROLLBACK", logger: testLogger)
                return result
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: testLogger)
                throw error
            }
        }
    }

    /// The process id of the server backend whose statement waits on a lock that the backend `holder` holds, polled
    /// for at most 20 seconds.
    ///
    /// - Throws: When no statement waited on `holder` in time.
    static func backendWaiting(on holder: Int32, admin: PostgresClient) async throws -> Int32 {
        let query: PostgresQuery = "SELECT pid FROM pg_stat_activity WHERE \(holder) = ANY(pg_blocking_pids(pid))"
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            for try await pid in try await admin.query(query).decode(Int32.self) { return pid }
            // The statement has not reached the server yet: look again shortly.
            try await Task.sleep(for: .milliseconds(20))
        }
        throw NoStatementWaits(holder: holder)
    }

    /// Whether the database holds a table named `name`.
    static func tableExists(_ name: String, client: PostgresClient) async throws -> Bool {
        for try await exists in try await client.query("SELECT to_regclass(\(name)) IS NOT NULL").decode(Bool.self) {
            return exists
        }
        return false
    }

    /// Ends the connection of the server backend `pid`, as an administrator does.
    static func terminateBackend(_ pid: Int32, admin: PostgresClient) async throws {
        _ = try await admin.query("SELECT pg_terminate_backend(\(pid))")
    }

    /// No statement waited on a lock of the backend `holder` within the time allowed.
    struct NoStatementWaits: Error {
        let holder: Int32
    }
}

/// The value after `iterator`'s next one, which the stream must give: a stream that ended fails the test.
func nextValue<T: Sendable>(_ iterator: inout AsyncStream<T?>.Iterator) async throws -> T? {
    try #require(await iterator.next())
}
