import ForgeCrypt
import ForgePostgres
import Foundation
import Testing

/// What a database administrator without the master key sees: no secret and no key name in any column.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresCryptAtRestTests {
    @Test func theTableHoldsNeitherASecretNorAKeyName() async throws {
        try await TestServer.withCrypts { stores in
            let store = stores[0]
            let keyName = "customer-api-token-\(UUID().uuidString)"
            let secret = "sk_live_\(UUID().uuidString)"
            try await store.set(secret, for: CryptKey<String>(key: keyName))
            try await store.set(["nested": secret], for: CryptKey<[String: String]>(key: keyName + ".json"))
            try await store.set(Data(secret.utf8), for: CryptKey<Data>(key: keyName + ".data"))

            let rows = try await TestServer.rawSecretRows(of: store.namespace, client: store.client)
            #expect(rows.count == 4, "a header row and three items")
            #expect(rows.filter { $0.item == "header" }.count == 1)
            #expect(rows.filter { $0.item != "header" }.allSatisfy { SecretSealer.isItemName($0.item) })
            for row in rows {
                for needle in [keyName, secret, store.namespace] {
                    #expect(!row.item.contains(needle))
                    #expect(row.sealed.range(of: Data(needle.utf8)) == nil)
                    #expect(row.namespace.range(of: Data(needle.utf8)) == nil)
                }
            }
            #expect(try await store.get(CryptKey<String>(key: keyName)) == secret)
        }
    }
}
