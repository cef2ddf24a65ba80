internal import ForgeCrypt
internal import Foundation
public import PostgresNIO

/// Reading a secrets table without opening its secrets, for tools that inspect a database (such as the `forge inspect`
/// command of the examples).
extension PostgresCrypt {
    /// The number of secrets this store's namespace holds, counted by the server: no sealed item is fetched or
    /// opened.
    ///
    /// The store's `AsyncCryptBackend/itemCount()`, which every secret store has: the number of keys `keys()` lists,
    /// which opens every row, found in one statement after the store is prepared (so a wrong master key fails it as
    /// it fails every call). It counts the rows ``itemCount(client:namespace:tableName:connectionWait:)`` counts,
    /// a sealed item that does not open among them.
    ///
    /// - Throws: `CryptStoreError/listFailed(underlying:)`, `CryptStoreError/masterKeyRotated(path:)` when the
    ///   namespace moved to another master key, or the error a store that cannot be prepared throws.
    public func itemCount() async throws -> Int {
        let sealer = try await preparedSealer(for: .list)
        // The header in the same statement, so that a store on the old key of a rotation is told.
        let (count, header) = try await perform(.list) { [self] connection in
            let query: PostgresQuery = try """
            SELECT count(*) FILTER (WHERE item <> \(PostgresCryptTable.headerItem))::int,
                   (SELECT sealed FROM \(unescaped: table.quoted)
                    WHERE namespace = sha256(\(namespaceBytes)) AND item = \(PostgresCryptTable.headerItem))
            FROM \(unescaped: table.quoted) WHERE namespace = sha256(\(namespaceBytes))
            """
            var found: (Int, Data?) = (0, nil)
            for try await row in try await connection.query(query, logger: ConnectionLease.logger)
                .decode((Int, Data?).self)
            {
                found = row
            }
            return found
        }
        try sealer.checkKey(against: header, location: location)
        return count
    }

    /// How many secrets `namespace` holds in `tableName`, counted without a store and without the master key; nil when
    /// the namespace holds no row (neither a header nor a secret) or the table does not exist.
    ///
    /// Secrets whose header row is gone are counted: a store refuses to open them (`CryptStoreError.corruptVault`),
    /// and a tool should show them rather than hide them.
    ///
    /// Namespaces are stored hashed, so a table cannot list them: name the namespace to count. Only reads: a missing
    /// table is not created.
    ///
    /// - Throws: `CryptStoreError.listFailed(underlying:)`.
    public static func itemCount(
        client: PostgresClient,
        namespace: String,
        tableName: String = "forge_secrets",
        connectionWait: Duration = .seconds(10)
    ) async throws -> Int? {
        let table = PostgresCryptTable(name: tableName)
        if let failure = table.validationFailure {
            throw CryptStoreError.listFailed(underlying: .other(failure))
        }
        let namespaceBytes = Data(namespace.precomposedStringWithCanonicalMapping.utf8)
        do {
            return try await ConnectionLease(client: client, wait: connectionWait)
                .withConnection { connection in
                    guard try await table.isReady(on: connection) else { return nil }
                    let query: PostgresQuery = try """
                    SELECT count(*) FILTER (WHERE item <> \(PostgresCryptTable.headerItem))::int,
                           bool_or(item = \(PostgresCryptTable.headerItem))
                    FROM \(unescaped: table.quoted) WHERE namespace = sha256(\(namespaceBytes))
                    """
                    for try await (count, hasHeader)
                        in try await connection.query(query, logger: ConnectionLease.logger)
                        .decode((Int, Bool?).self)
                    {
                        return hasHeader == true || count > 0 ? count : nil
                    }
                    return nil
                }
        } catch {
            throw CryptStoreError.listFailed(underlying: FailureReason(postgres: error))
        }
    }
}
