internal import Logging
internal import NIOConcurrencyHelpers
internal import PostgresNIO

extension ConnectionLease {
    /// Runs `body` in a transaction on `connection` (`BEGIN` first), then commits it, or rolls it back when
    /// `committing` is false or `body` throws; what `body` throws is thrown as it is.
    ///
    /// Unlike postgres-nio's `withTransaction`, a failure that ended the connection is thrown without a `ROLLBACK`
    /// (the server rolled the transaction back as it ended the connection, and a query sent on such a connection can
    /// wait for ever), and unwrapped, so that the lease sees it and closes the connection. A connection that closed
    /// between two statements (the server ended it while it was idle in the transaction) is not sent the `COMMIT` or
    /// the `ROLLBACK` either: ``ConnectionClosed`` is thrown.
    static func transaction<Result>(
        on connection: PostgresConnection,
        committing: Bool = true,
        _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        _ = try await connection.query("BEGIN", logger: logger)
        do {
            let result = try await body(connection)
            if committing {
                guard !connection.isClosed else { throw ConnectionClosed() }
                _ = try await connection.query("COMMIT", logger: logger)
            } else {
                await rollBack(connection)
            }
            return result
        } catch let error as PSQLError where endsConnection(error) {
            throw error
        } catch {
            if !connection.isClosed { await rollBack(connection) }
            throw error
        }
    }

    /// Runs `query` on `connection`, throwing ``ConnectionClosed`` as soon as the connection closes: postgres-nio never
    /// answers a statement sent on a connection that closed while it was idle (the server ended it between two
    /// statements of a transaction), so the statement would wait for ever.
    ///
    /// Each call adds a callback to the connection's close, kept until it closes: for the statements of a long
    /// transaction, not for every statement of a connection.
    ///
    /// - Throws: ``ConnectionClosed``, or what the statement throws.
    @discardableResult
    static func statement(_ query: PostgresQuery, on connection: PostgresConnection) async throws -> PostgresRowSequence
    {
        guard !connection.isClosed else { throw ConnectionClosed() }
        let outcome = StatementOutcome()
        return try await withCheckedThrowingContinuation { continuation in
            outcome.wait(continuation)
            connection.closeFuture.whenComplete { _ in outcome.finish(.failure(ConnectionClosed())) }
            // Left running when the connection closed first: postgres-nio may never end it.
            Task {
                do {
                    outcome.finish(.success(try await connection.query(query, logger: logger)))
                } catch {
                    outcome.finish(.failure(error))
                }
            }
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

/// The connection closed before a statement sent on it was answered, or before one was sent.
struct ConnectionClosed: Error, CustomStringConvertible {
    var description: String { "the connection to the PostgreSQL server closed" }
}

/// The outcome of one statement of ``ConnectionLease/statement(_:on:)``: its rows or its error, or the close of its
/// connection, whichever comes first, handed to its caller once.
private final class StatementOutcome: Sendable {
    private let continuation = NIOLockedValueBox<CheckedContinuation<PostgresRowSequence, any Error>?>(nil)

    /// Keeps the caller's continuation, to resume with the first outcome.
    func wait(_ continuation: CheckedContinuation<PostgresRowSequence, any Error>) {
        self.continuation.withLockedValue { $0 = continuation }
    }

    /// Resumes the caller with `result`, unless it was resumed already.
    func finish(_ result: Result<PostgresRowSequence, any Error>) {
        let waiting = continuation.withLockedValue { continuation in
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(with: result)
    }
}
