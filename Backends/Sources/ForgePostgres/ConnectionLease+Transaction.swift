internal import Logging
internal import PostgresNIO

extension ConnectionLease {
    /// Runs `body` in a transaction on `connection` (`BEGIN` first), then commits it, or rolls it back when
    /// `committing` is false or `body` throws; what `body` throws is thrown as it is.
    ///
    /// Unlike postgres-nio's `withTransaction`, a failure that ended the connection is thrown without a `ROLLBACK`
    /// (the server rolled the transaction back as it ended the connection, and a query sent on such a connection can
    /// wait for ever), and unwrapped, so that the lease sees it and closes the connection.
    static func transaction<Result>(
        on connection: PostgresConnection,
        committing: Bool = true,
        _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        _ = try await connection.query("BEGIN", logger: logger)
        do {
            let result = try await body(connection)
            if committing {
                _ = try await connection.query("COMMIT", logger: logger)
            } else {
                await rollBack(connection)
            }
            return result
        } catch let error as PSQLError where endsConnection(error) {
            throw error
        } catch {
            await rollBack(connection)
            throw error
        }
    }

    /// Ends the transaction on `connection` without applying it; closes the connection when even that fails, so that
    /// the pool never hands out a connection inside a transaction.
    private static func rollBack(_ connection: PostgresConnection) async {
        do {
            _ = try await connection.query("ROLLBACK", logger: logger)
        } catch {
            try? await connection.close()
        }
    }
}
