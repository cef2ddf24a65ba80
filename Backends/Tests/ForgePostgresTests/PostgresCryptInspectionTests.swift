import ForgeCrypt
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

/// Counting a namespace's secrets: a store counts them on the server, as the in-memory twin counts its own, and a tool
/// without the master key counts them too, as `forge inspect` does.
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

    @Test func theStoreCountsWhatTheTwinCountsWithoutOpeningARow() async throws {
        try await TestServer.withCrypts { (stores) async throws in
            let secrets = stores[0]
            let twin = InMemoryCrypt()
            #expect(try await secrets.itemCount() == 0)
            for name in ["one", "two", "one", "caf\u{E9}", "cafe\u{301}"] {
                try await secrets.set(name, for: CryptKey<String>(key: name))
                try twin.set(name, for: CryptKey<String>(key: name))
            }
            try await secrets.delete(CryptKey<String>(key: "two"))
            try twin.delete(CryptKey<String>(key: "two"))
            #expect(try twin.itemCount() == 2)
            #expect(try await secrets.itemCount() == twin.itemCount())
            #expect(try await secrets.itemCount() == secrets.keys().count)
            #expect(try await PostgresCrypt.itemCount(client: secrets.client, namespace: secrets.namespace) == 2)
        }
    }

    @Test func aStoreWithAnotherMasterKeyCannotCount() async throws {
        try await TestServer.withCrypts { (stores) async throws in
            let secrets = stores[0]
            try await secrets.set("a", for: CryptKey<String>(key: "one"))
            let stranger = PostgresCrypt(
                client: secrets.client,
                namespace: secrets.namespace,
                masterKey: .symmetric(SymmetricKey(size: .bits256))
            )
            await #expect(throws: CryptStoreError.self) { try await stranger.itemCount() }
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
