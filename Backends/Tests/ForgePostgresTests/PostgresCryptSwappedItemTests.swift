import ForgeCrypt
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

/// Sealed items an administrator moves between rows never open as another key's secret.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresCryptSwappedItemTests {
    let alice = CryptKey<String>(key: "alice")
    let bob = CryptKey<String>(key: "bob")

    @Test func aSealedItemCopiedOntoAnotherKeysRowIsTampered() async throws {
        try await TestServer.withCrypts { stores in
            let store = stores[0]
            try await store.set("alice's secret", for: alice)
            let aliceItem = try #require(try await itemNames(of: store).first)
            try await store.set("bob's secret", for: bob)
            let bobItem = try #require(try await itemNames(of: store).first { $0 != aliceItem })

            try await copySealed(from: aliceItem, to: bobItem, in: store)

            let error = await #expect(throws: CryptStoreError.self) { try await store.get(bob) }
            #expect(error == .tamperedItem(key: "bob"))
            await #expect(throws: CryptStoreError.tamperedItem(key: bobItem)) { try await store.keys() }
            #expect(try await store.get(alice) == "alice's secret")
        }
    }

    @Test func aSealedItemFromAnotherNamespaceWithTheSameKeyIsTampered() async throws {
        let masterKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        try await TestServer.withCrypts(masterKey: masterKey) { stores in
            let store = stores[0]
            let other = PostgresCrypt(
                client: store.client,
                namespace: "other-\(UUID().uuidString)",
                masterKey: masterKey
            )
            try await store.set("mine", for: bob)
            try await other.set("theirs", for: bob)
            let theirs = try #require(
                try await TestServer.rawSecretRows(of: other.namespace, client: store.client)
                    .first { $0.item != "header" }
            )
            let mine = try #require(try await itemNames(of: store).first)

            let query: PostgresQuery = try """
            UPDATE forge_secrets SET sealed = \(theirs.sealed) \
            WHERE namespace = sha256(\(Data(store.namespace.utf8))) AND item = \(mine)
            """
            try await store.client.query(query)

            await #expect(throws: CryptStoreError.tamperedItem(key: "bob")) { try await store.get(bob) }
            try await other.deleteAll()
        }
    }

    @Test func aChangedByteIsTampered() async throws {
        try await TestServer.withCrypts { stores in
            let store = stores[0]
            try await store.set("alice's secret", for: alice)
            let query: PostgresQuery = try """
            UPDATE forge_secrets SET sealed = set_byte(sealed, length(sealed) - 1, get_byte(sealed, length(sealed) - 1) # 1) \
            WHERE namespace = sha256(\(Data(store.namespace.utf8))) AND item <> 'header'
            """
            try await store.client.query(query)

            await #expect(throws: CryptStoreError.tamperedItem(key: "alice")) { try await store.get(alice) }
        }
    }

    /// The item names of the namespace's secrets, sorted.
    private func itemNames(of store: PostgresCrypt) async throws -> [String] {
        try await TestServer.rawSecretRows(of: store.namespace, client: store.client).map(\.item)
            .filter {
                $0 != "header"
            }
    }

    /// Copies the sealed item of the row `source` onto the row `target`, as an administrator could.
    private func copySealed(from source: String, to target: String, in store: PostgresCrypt) async throws {
        let namespace = Data(store.namespace.utf8)
        let query: PostgresQuery = try """
        UPDATE forge_secrets SET sealed = (
            SELECT sealed FROM forge_secrets WHERE namespace = sha256(\(namespace)) AND item = \(source)
        ) WHERE namespace = sha256(\(namespace)) AND item = \(target)
        """
        try await store.client.query(query)
    }
}
