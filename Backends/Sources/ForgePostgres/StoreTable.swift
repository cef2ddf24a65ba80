internal import ForgeKVStore
internal import PostgresNIO

/// The SQL of a store's tables: their name, whether they are all there, and the statement that makes what is missing.
///
/// The three stores prepare their tables the same way, through ``createIfMissing(on:)``.
protocol StoreTable: Sendable {
    /// The name the tables are named after, checked by ``validationFailure``.
    var name: String { get }
    /// A query of one Boolean: whether everything the store needs is there, so nothing is to be made.
    var readinessQuery: PostgresQuery { get }
    /// One statement that makes what is missing, under a transaction-scoped advisory lock, so that stores preparing at
    /// once in several processes do not race on the catalog. Only valid when ``validationFailure`` is nil.
    var createStatement: PostgresQuery { get }
}

extension StoreTable {
    /// Why ``name`` cannot name the tables, or nil when it can: see `TableName`.
    var validationFailure: String? {
        TableName.validationFailure(of: name)
    }

    /// Throws when ``name`` cannot name the tables.
    ///
    /// - Throws: ``PostgresStoreError/prepareFailed(table:underlying:)``.
    func checkName() throws(PostgresStoreError) {
        if let failure = validationFailure {
            throw .prepareFailed(table: name, underlying: .other(failure))
        }
    }

    /// Whether everything the store needs is there, read from the catalog on `connection`.
    func isReady(on connection: PostgresConnection) async throws -> Bool {
        let rows = try await connection.query(readinessQuery, logger: ConnectionLease.logger)
        for try await isReady in rows.decode(Bool.self) { return isReady }
        return false
    }

    /// Makes what is missing, on `connection`.
    ///
    /// When everything is there it only reads the catalog, so that a role that may only read and write rows uses
    /// tables an administrator made.
    func createIfMissing(on connection: PostgresConnection) async throws {
        if try await isReady(on: connection) { return }
        _ = try await connection.query(createStatement, logger: ConnectionLease.logger)
    }
}
