import ForgeCrypt
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

/// A namespace's header row changed under the stores: deleted while its secrets stayed, or written again in other
/// bytes.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresCryptHeaderRowTests {
    @Test func aStoreStartingWithoutTheHeaderRefusesAndLeavesTheSecretsReadable() async throws {
        let masterKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        try await TestServer.withCrypts(masterKey: masterKey) { (stores) async throws in
            let (running, client, namespace) = (stores[0], stores[0].client, stores[0].namespace)
            let token = CryptKey<String>(key: "auth.token")
            try await running.set("precious", for: token)
            let namespaceBytes = Data(namespace.utf8)
            _ = try await client.query(
                "DELETE FROM forge_secrets WHERE namespace = sha256(\(namespaceBytes)) AND item = 'header'"
            )

            // A store that starts now, with the right key, must not start a new header beside the item.
            let starting = PostgresCrypt(client: client, namespace: namespace, masterKey: masterKey)
            await #expect {
                try await starting.get(token)
            } throws: { error in
                guard case CryptStoreError.corruptVault = error else { return false }
                return true
            }
            #expect(try await TestServer.rawSecretRows(of: namespace, client: client).map(\.item).count == 1)

            // The running store still holds the header: its next write puts it back, and every store reads again.
            try await running.set("precious", for: CryptKey<String>(key: "auth.other"))
            let restarted = PostgresCrypt(client: client, namespace: namespace, masterKey: masterKey)
            #expect(try await restarted.get(token) == "precious")
        }
    }

    @Test func aHeaderWrittenAgainInOtherBytesStillTakesWrites() async throws {
        let masterKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        try await TestServer.withCrypts(masterKey: masterKey) { (stores) async throws in
            let (running, client, namespace) = (stores[0], stores[0].client, stores[0].namespace)
            try await running.set("one", for: CryptKey<String>(key: "first"))
            // Other SQL writes the same header again, pretty-printed: the same vault in other bytes.
            let header = try #require(
                try await TestServer.rawSecretRows(of: namespace, client: client).first { $0.item == "header" }
            )
            .sealed
            let object = try JSONSerialization.jsonObject(with: header)
            let rewritten = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted])
            #expect(rewritten != header)
            let namespaceBytes = Data(namespace.utf8)
            _ = try await client.query(
                "UPDATE forge_secrets SET sealed = \(rewritten) WHERE namespace = sha256(\(namespaceBytes)) AND item = 'header'"
            )

            try await running.set("two", for: CryptKey<String>(key: "second"))
            let restarted = PostgresCrypt(client: client, namespace: namespace, masterKey: masterKey)
            #expect(try await restarted.get(CryptKey<String>(key: "second")) == "two")
        }
    }
}
