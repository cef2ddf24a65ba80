import ForgePostgres
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
