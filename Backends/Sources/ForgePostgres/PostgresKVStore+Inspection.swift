internal import ForgeKVStore
internal import Foundation
public import PostgresNIO

/// Reading a table without knowing its keys in advance, for tools that inspect a database (such as the `forge
/// inspect` command of the examples) and for migrations.
extension PostgresKVStore {
    /// The namespaces that hold a value in `tableName`, each as a store's ``namespace``, sorted.
    ///
    /// A table that does not exist yet holds none, and is not created.
    ///
    /// - Throws: `KVStoreError/listFailed(underlying:)`.
    public static func namespaces(
        client: PostgresClient,
        tableName: String = "forge_kv",
        connectionWait: Duration = .seconds(10)
    ) async throws -> [String] {
        if let failure = TableName.validationFailure(of: tableName) {
            throw KVStoreError.listFailed(underlying: .other(failure))
        }
        let quotedTable = TableName.quoted(tableName)
        let names: [String]
        do {
            // Only reads: a missing table is not created, it holds no namespace (its triggers are not needed here).
            names = try await ConnectionLease(client: client, wait: connectionWait)
                .withConnection { connection in
                    let exists: PostgresQuery = "SELECT to_regclass(\(quotedTable)) IS NOT NULL"
                    for try await found in try await connection.query(exists, logger: ConnectionLease.logger)
                        .decode(Bool.self)
                    where !found {
                        return []
                    }
                    let query: PostgresQuery = "SELECT DISTINCT namespace FROM \(unescaped: quotedTable)"
                    var names: [String] = []
                    for try await name in try await connection.query(query, logger: ConnectionLease.logger)
                        .decode(String.self)
                    {
                        names.append(name)
                    }
                    return names
                }
        } catch {
            throw KVStoreError.listFailed(underlying: FailureReason(postgres: error))
        }
        return Set(names.map(StoredText.text(fromStored:))).sorted()
    }
}
