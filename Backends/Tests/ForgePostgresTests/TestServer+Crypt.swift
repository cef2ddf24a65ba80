import ForgeCrypt
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

extension TestServer {
    /// Runs `body` with `count` secrets stores on one new namespace of `tableName`, each with its own client and
    /// `masterKey` (a new symmetric key unless told), and removes the namespace's secrets after.
    static func withCrypts(
        _ count: Int = 1,
        masterKey: MasterKey = .symmetric(SymmetricKey(size: .bits256)),
        tableName: String = "forge_secrets",
        _ body: ([PostgresCrypt]) async throws -> Void
    ) async throws {
        let namespace = "test-\(UUID().uuidString)"
        try await withClients(count) { clients in
            let stores = clients.map {
                PostgresCrypt(client: $0, namespace: namespace, masterKey: masterKey, tableName: tableName)
            }
            do {
                try await body(stores)
            } catch {
                try? await stores[0].deleteAll()
                throw error
            }
            try await stores[0].deleteAll()
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

    /// Bindings holding `value`.
    private static func binds(_ value: Data) throws -> PostgresBindings {
        var bindings = PostgresBindings()
        try bindings.append(value)
        return bindings
    }
}
