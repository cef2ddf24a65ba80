@testable import ForgePostgres
import PostgresNIO
import Testing

/// `PostgresClient.Configuration(url:)`: the parts of a `postgres://` URL, and URLs it refuses without quoting them.
struct PostgresClientURLTests {
    @Test func everyPartOfTheURLIsRead() throws {
        let configuration = try PostgresClient.Configuration(
            url: "postgresql://app%40prod:p%2Fss@db.example.com:6543/task%20flow?sslmode=disable"
        )
        #expect(configuration.host == "db.example.com")
        #expect(configuration.port == 6543)
        #expect(configuration.username == "app@prod")
        #expect(configuration.password == "p/ss")
        #expect(configuration.database == "task flow")
    }

    @Test func aPercentSignIsDecodedOnce() throws {
        let configuration = try PostgresClient.Configuration(url: "postgres://us%25er:100%25zz@h/50%25off")
        #expect(configuration.username == "us%er")
        #expect(configuration.password == "100%zz")
        #expect(configuration.database == "50%off")
        let literal = try PostgresClient.Configuration(url: "postgres://u:%2541@h/db")
        #expect(literal.password == "%41")
    }

    @Test func anIPv6HostLosesItsBrackets() throws {
        let configuration = try PostgresClient.Configuration(url: "postgres://u@[::1]:5433/db")
        #expect(configuration.host == "::1")
        #expect(configuration.port == 5433)
    }

    @Test func aHostThatIsAFolderIsTheUnixSocketInIt() throws {
        let configuration = try PostgresClient.Configuration(url: "postgres://u@%2Fvar%2Frun%2Fpostgresql:5433/db")
        #expect(configuration.unixSocketPath == "/var/run/postgresql/.s.PGSQL.5433")
        #expect(configuration.host == nil)
        #expect(configuration.database == "db")
    }

    @Test func missingPartsTakeTheirDefaults() throws {
        let configuration = try PostgresClient.Configuration(url: "postgres://localhost")
        #expect(configuration.port == 5432)
        #expect(configuration.username == "postgres")
        #expect(configuration.password == nil)
        #expect(configuration.database == nil)
    }

    @Test(arguments: [
        ("mysql://root:secret@db/app", "scheme"),
        ("postgres:///app", "no host"),
        ("postgres://user:secret@db/app?sslmode=sometimes", "sslmode 'sometimes'"),
        ("postgres://user:secret@db:port/app", "not a URL"),
        ("postgres://user:secret@db/app?sslcert=client.pem", "option 'sslcert' is not supported"),
        ("postgres://user:secret@db/app?sslmode=require&sslrootcert=system", "sslrootcert=system needs"),
    ])
    func aURLThatCannotBeUsedIsRefusedWithoutQuotingIt(url: String, reason: String) {
        #expect {
            try PostgresClient.Configuration(url: url)
        } throws: { error in
            let text = String(describing: error)
            return (error as? PostgresStoreError).map { if case .invalidServerURL = $0 { true } else { false } } == true
                && text.contains(reason) && !text.contains("secret")
        }
    }
}

/// `sslmode` and `sslrootcert` chosen as libpq reads them.
struct PostgresClientTLSTests {
    @Test(arguments: [
        ("prefer", false, CertificateVerification.none),
        ("allow", false, CertificateVerification.none),
        ("require", true, CertificateVerification.none),
        ("verify-ca", true, CertificateVerification.noHostnameVerification),
        ("verify-full", true, CertificateVerification.fullVerification),
    ])
    func eachModeRequiresAndVerifiesAsLibpqDoes(mode: String, required: Bool, verification: CertificateVerification)
        throws
    {
        let choice = try #require(try PostgresClient.Configuration.tlsChoice(sslmode: mode, trustedAuthorities: nil))
        #expect(choice.required == required)
        #expect(choice.configuration.certificateVerification == verification)
        #expect(choice.configuration.trustRoots == .default)
    }

    @Test func requireWithNamedAuthoritiesChecksTheSignature() throws {
        let choice = try PostgresClient.Configuration.tlsChoice(sslmode: "require", trustedAuthorities: "/ca.pem")
        #expect(choice?.configuration.certificateVerification == .noHostnameVerification)
        let system = try PostgresClient.Configuration.tlsChoice(sslmode: "verify-full", trustedAuthorities: "system")
        #expect(system?.configuration.trustRoots == .default)
        #expect(system?.configuration.certificateVerification == .fullVerification)
    }

    @Test func disableTurnsTLSOffAndSSLRootCertIsTrusted() throws {
        #expect(try PostgresClient.Configuration.tlsChoice(sslmode: "disable", trustedAuthorities: nil) == nil)
        let choice = try PostgresClient.Configuration.tlsChoice(sslmode: "verify-full", trustedAuthorities: "/ca.pem")
        #expect(choice?.configuration.trustRoots == .file("/ca.pem"))
    }
}
