internal import Foundation
public import PostgresNIO

extension PostgresClient.Configuration {
    /// A configuration of the server a `postgres://user:password@host:port/database?sslmode=…` URL names, as
    /// `psql` and most tools take it.
    ///
    /// The scheme is `postgres` or `postgresql`; the host is required (an IPv6 address in brackets, `[::1]`); the
    /// port defaults to 5432, the user to `postgres`, and the database to the user's. User, password and database are
    /// percent-decoded once, so `%25` is a `%`. `sslmode` chooses TLS as libpq does: `disable` turns it off, `prefer`
    /// (the default) and `allow` use it when the server offers it, `require` requires it, all three without checking
    /// the server's certificate; `verify-ca` also checks that a trusted authority signed the certificate, and
    /// `verify-full` also that it names the host. `sslrootcert` names a file of trusted authorities in PEM (otherwise
    /// the system's are trusted); with it, `require` checks the signature as `verify-ca` does, and
    /// `sslrootcert=system` asks for `verify-full` with the system's authorities. A host that is a folder
    /// (`postgres://%2Fvar%2Frun%2Fpostgresql/db`) is the Unix-domain socket in it. Other query options are refused
    /// rather than ignored.
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
        guard var host = url.percentEncodedHost, !host.isEmpty else {
            throw .invalidServerURL(reason: "it names no host")
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard let decodedHost = host.removingPercentEncoding else {
            throw .invalidServerURL(reason: "its host is not percent-encoded correctly")
        }
        for option in url.queryItems ?? [] where !Self.urlOptions.contains(option.name) {
            throw .invalidServerURL(
                reason:
                    "its option '\(option.name)' is not supported (only \(Self.urlOptions.sorted().joined(separator: ", ")))"
            )
        }
        let username = try Self.decoded(url.percentEncodedUser, part: "user") ?? "postgres"
        let password = try Self.decoded(url.percentEncodedPassword, part: "password")
        let database = try Self.decoded(String(url.percentEncodedPath.dropFirst()), part: "database")
        let sslmode = url.queryItems?.last(where: { $0.name == "sslmode" })?.value ?? "prefer"
        let roots = url.queryItems?.last(where: { $0.name == "sslrootcert" })?.value
        let tls: TLS =
            switch try Self.tlsChoice(sslmode: sslmode, trustedAuthorities: roots) {
            case nil: .disable
            case (let configuration, required: false)?: .prefer(configuration)
            case (let configuration, required: true)?: .require(configuration)
            }
        let port = url.port ?? 5432
        let databaseName = database?.isEmpty == false ? database : nil
        if decodedHost.hasPrefix("/") {
            // The socket file PostgreSQL makes in that folder, named after the port.
            let socket = (decodedHost.hasSuffix("/") ? decodedHost : decodedHost + "/") + ".s.PGSQL.\(port)"
            self.init(unixSocketPath: socket, username: username, password: password, database: databaseName)
        } else {
            self.init(
                host: decodedHost,
                port: port,
                username: username,
                password: password,
                database: databaseName,
                tls: tls
            )
        }
    }

    /// The query options a URL may carry.
    static let urlOptions: Set<String> = ["sslmode", "sslrootcert"]

    /// The TLS that `sslmode` asks for, as libpq reads it.
    ///
    /// Nil for none, or the TLS configuration and whether the connection fails without it. `trustedAuthorities` is
    /// the file `sslrootcert` names, if any.
    static func tlsChoice(
        sslmode: String,
        trustedAuthorities: String?
    ) throws(PostgresStoreError) -> (configuration: TLSConfiguration, required: Bool)? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if trustedAuthorities == "system" {
            // As libpq 16 reads it: the system's authorities, and nothing weaker than a full check.
            guard sslmode == "verify-full" else {
                throw .invalidServerURL(reason: "its sslrootcert=system needs sslmode=verify-full")
            }
        } else if let trustedAuthorities {
            configuration.trustRoots = .file(trustedAuthorities)
        }
        switch sslmode {
        case "disable":
            return nil
        case "allow", "prefer":
            configuration.certificateVerification = .none
            return (configuration, required: false)
        case "require":
            // With authorities named, libpq checks the signature as verify-ca does.
            configuration.certificateVerification = trustedAuthorities == nil ? .none : .noHostnameVerification
            return (configuration, required: true)
        case "verify-ca":
            configuration.certificateVerification = .noHostnameVerification
            return (configuration, required: true)
        case "verify-full":
            return (configuration, required: true)
        default:
            throw .invalidServerURL(reason: "its sslmode '\(sslmode)' is not one PostgreSQL knows")
        }
    }

    /// `encoded` (a part of the URL named `part`) percent-decoded, or nil when the URL has no such part.
    private static func decoded(_ encoded: String?, part: String) throws(PostgresStoreError) -> String? {
        guard let encoded else { return nil }
        guard let decoded = encoded.removingPercentEncoding else {
            throw .invalidServerURL(reason: "its \(part) is not percent-encoded correctly")
        }
        return decoded
    }
}
