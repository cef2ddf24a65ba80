public import Foundation
public import PostgresNIO

extension PostgresClient.Configuration {
    /// A configuration of the server a `postgres://user:password@host:port/database?sslmode=…` URL names, as
    /// `psql` and most tools take it.
    ///
    /// The scheme is `postgres` or `postgresql`; the host is required; the port defaults to 5432, the user to
    /// `postgres`, and the database to the user's. User, password and database may be percent-encoded.
    /// `sslmode` chooses TLS: `disable` turns it off, `prefer` (the default) uses it when the server offers it,
    /// and `require`, `verify-ca` and `verify-full` require it; whenever TLS is used, the server's certificate is
    /// verified against the system's trusted roots.
    ///
    /// - Throws: ``PostgresStoreError/invalidServerURL(reason:)``, which never quotes the URL, since it may hold a
    ///   password.
    public init(url text: String) throws(PostgresStoreError) {
        guard let url = URLComponents(string: text) else {
            throw .invalidServerURL(reason: "it is not a URL")
        }
        guard url.scheme == "postgres" || url.scheme == "postgresql" else {
            throw .invalidServerURL(reason: "its scheme is not postgres:// or postgresql://")
        }
        guard let host = url.host, !host.isEmpty else {
            throw .invalidServerURL(reason: "it names no host")
        }
        let tls: TLS
        switch url.queryItems?.last(where: { $0.name == "sslmode" })?.value ?? "prefer" {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
        case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
        case let mode: throw .invalidServerURL(reason: "its sslmode '\(mode)' is not one PostgreSQL knows")
        }
        let username = url.user?.removingPercentEncoding ?? "postgres"
        let database = String(url.path.dropFirst()).removingPercentEncoding
        self.init(
            host: host,
            port: url.port ?? 5432,
            username: username,
            password: url.password?.removingPercentEncoding,
            database: database?.isEmpty == false ? database : nil,
            tls: tls
        )
    }
}
