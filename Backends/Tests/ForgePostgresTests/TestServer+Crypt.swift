import ForgeCrypt
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

extension TestServer {
    /// Runs `body` with `count` secrets stores on one new namespace of `tableName`, each with its own client and
    /// `masterKey` (a new symmetric key unless told), and removes the namespace's secrets after, with `cleanUp` (the
    /// first store's `deleteAll()` unless told).
    static func withCrypts(
        _ count: Int = 1,
        masterKey: MasterKey = .symmetric(SymmetricKey(size: .bits256)),
        tableName: String = "forge_secrets",
        cleanUp: (PostgresCrypt) async throws -> Void = { try await $0.deleteAll() },
        _ body: ([PostgresCrypt]) async throws -> Void
    ) async throws {
        let namespace = "test-\(UUID().uuidString)"
        try await withClients(count) { clients in
            let stores = clients.map {
                PostgresCrypt(
                    client: $0,
                    namespace: namespace,
                    masterKey: masterKey,
                    tableName: tableName,
                    connectionWait: connectionWait
                )
            }
            do {
                try await body(stores)
            } catch {
                try? await cleanUp(stores[0])
                throw error
            }
            try await cleanUp(stores[0])
        }
    }

    /// Every row of the namespace `namespace` of a secrets table, as the database holds them: what an administrator
    /// without the master key sees.
    static func rawSecretRows(
        of namespace: String,
        tableName: String = "forge_secrets",
        client: PostgresClient
    ) async throws -> [(namespace: Data, item: String, sealed: Data)] {
        let query = PostgresQuery(
            unsafeSQL: "SELECT namespace, item, sealed FROM \"\(tableName)\" "
                + "WHERE namespace = sha256($1) ORDER BY item",
            binds: try binds(Data(namespace.precomposedStringWithCanonicalMapping.utf8))
        )
        var rows: [(namespace: Data, item: String, sealed: Data)] = []
        for try await row in try await client.query(query).decode((Data, String, Data).self) {
            rows.append((row.0, row.1, row.2))
        }
        return rows
    }

    /// The rows of the namespace `namespace` of a secrets table, by `item`: what a test compares before and after.
    static func secretRows(
        of namespace: String,
        tableName: String = "forge_secrets",
        client: PostgresClient
    ) async throws -> [String: Data] {
        var rows: [String: Data] = [:]
        for row in try await rawSecretRows(of: namespace, tableName: tableName, client: client) {
            rows[row.item] = row.sealed
        }
        return rows
    }

    /// The server backends, other than `admin`'s own, whose transaction holds a lock on the table `tableName`: the
    /// statements and transactions running on it (a test gives such a table to one test at a time).
    static func transactionsHolding(_ tableName: String, admin: PostgresClient) async throws -> [Int32] {
        let query: PostgresQuery = """
            SELECT DISTINCT pid FROM pg_locks
            WHERE relation = to_regclass(\(tableName)) AND pid <> pg_backend_pid()
            """
        var pids: [Int32] = []
        for try await pid in try await admin.query(query).decode(Int32.self) { pids.append(pid) }
        return pids
    }

    /// Ends the connection of the server backend `pid`, as an administrator does, and returns once the backend has
    /// ended (PostgreSQL waits for it, up to 10 seconds).
    static func terminateBackendAndWait(_ pid: Int32, admin: PostgresClient) async throws {
        for try await ended in try await admin.query("SELECT pg_terminate_backend(\(pid), 10000)").decode(Bool.self) {
            #expect(ended, "the backend \(pid) did not end within 10 seconds")
        }
    }

    /// Bindings holding `value`.
    private static func binds(_ value: Data) throws -> PostgresBindings {
        var bindings = PostgresBindings()
        try bindings.append(value)
        return bindings
    }
}
