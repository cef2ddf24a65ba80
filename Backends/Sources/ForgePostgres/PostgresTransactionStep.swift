internal import PostgresNIO

/// One change of a transaction, as a store of ForgePostgres gives it to its ``PostgresTransactionRunner``.
enum PostgresTransactionStep: Sendable {
    /// A change the server applies with a statement of the store's, as the store's own call for it does.
    case statement(Statement)
    /// A change that fails the transaction with `error` when it is reached, without the server (a
    /// `StagedWrite.Change.fail`, a change of another kind of store).
    case failure(any Error)

    /// A change the server applies: the store's table must be there first, then the statement runs in the
    /// transaction.
    struct Statement: Sendable {
        /// Prepares the store's table, as the store's call does before its statement.
        let prepare: @Sendable () async throws -> Void
        /// Runs the change's statement on the transaction's connection.
        let apply: @Sendable (PostgresConnection) async throws -> Void
        /// The error the store throws when the same change alone fails with `error`.
        let failure: @Sendable (_ error: any Error) -> any Error
    }
}
