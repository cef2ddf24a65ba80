import ArgumentParser
import Foundation

#if Postgres
import ForgePostgres
#endif

/// The `--postgres` option of `demo`, `inspect` and `vault rotate`: use the stores of a PostgreSQL database instead of
/// a data folder.
struct PostgresOptions: ParsableArguments {
    /// The environment variable a password is read from when the URL has none, as `psql` reads it.
    static let passwordVariable = "PGPASSWORD"

    @Option(
        name: .customLong("postgres"),
        help: ArgumentHelp(
            """
            Use the stores of this PostgreSQL database (postgres://user@host:port/database) instead of a data \
            folder. A password missing from the URL is read from PGPASSWORD.
            """,
            valueName: "url"
        )
    )
    var url: String?
}

#if Postgres
extension PostgresOptions {
    /// The client configuration of `url`, with the password of ``passwordVariable`` when the URL has none.
    ///
    /// - Throws: `PostgresStoreError.invalidServerURL` when the URL cannot be used.
    static func configuration(url: String, environment: [String: String]) throws -> PostgresClient.Configuration {
        var configuration = try PostgresClient.Configuration(url: url)
        if configuration.password == nil { configuration.password = environment[passwordVariable] }
        return configuration
    }

    /// Runs `body` with a client of `configuration` that runs meanwhile, and stops it after.
    static func withClient<Result>(
        _ configuration: PostgresClient.Configuration,
        _ body: (PostgresClient) async throws -> Result
    ) async throws -> Result {
        let client = PostgresClient(configuration: configuration)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(client)
        }
    }

    /// Where the stores are, as the commands show it: the server and database, never the password.
    static func location(of configuration: PostgresClient.Configuration) -> String {
        let database = configuration.database ?? configuration.username
        if let socket = configuration.unixSocketPath {
            return "\(socket), database \(database), as \(configuration.username)"
        }
        let host = configuration.host ?? "?"
        // An IPv6 address is written in brackets, as in the URL.
        let server = (host.contains(":") ? "[\(host)]" : host) + ":\(configuration.port ?? 5432)"
        return "postgres://\(configuration.username)@\(server)/\(database)"
    }
}
#endif
