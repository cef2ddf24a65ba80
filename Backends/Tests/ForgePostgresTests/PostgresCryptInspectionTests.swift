import ForgeCrypt
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

/// Counting a namespace's secrets without the master key, as `forge inspect` does.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresCryptInspectionTests {
    @Test func theItemCountNeedsNoMasterKeyAndIgnoresTheHeader() async throws {
        try await TestServer.withCrypts { (stores) async throws in
            let (secrets, client, namespace) = (stores[0], stores[0].client, stores[0].namespace)
            #expect(try await PostgresCrypt.itemCount(client: client, namespace: namespace) == nil)
            try await secrets.prepare()
            #expect(try await PostgresCrypt.itemCount(client: client, namespace: namespace) == 0)
            try await secrets.set("a", for: CryptKey<String>(key: "one"))
            try await secrets.set("b", for: CryptKey<String>(key: "two"))
            #expect(try await PostgresCrypt.itemCount(client: client, namespace: namespace) == 2)
        }
    }

    @Test func aTableThatDoesNotExistCountsNothingAndIsNotCreated() async throws {
        try await TestServer.withClient { (client) async throws in
            let table = "forge_secrets_never_made_\(UInt32.random(in: 0...UInt32.max))"
            #expect(try await PostgresCrypt.itemCount(client: client, namespace: "x", tableName: table) == nil)
            #expect(try await TestServer.tableExists(table, client: client) == false)
        }
    }
}
