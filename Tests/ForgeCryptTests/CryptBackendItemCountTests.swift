import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeCrypt

/// `itemCount()`, written once on the backend contract: every secret store counts the keys it holds, each once, the
/// in-memory twin as the vault and the Keychain do; the vault counts without opening an item.
struct CryptBackendItemCountTests {
    @Test(arguments: CryptStoreKind.allCases)
    func everyStoreCountsEachKeyOnce(kind: CryptStoreKind) async throws {
        try await kind.withFixture { fixture in
            let store = try #require(try fixture.makeStore() as? any CryptStoring & CryptBackend)
            #expect(try store.itemCount() == 0)
            try store.set("a", for: CryptKey<String>(key: "auth.access"))
            try store.set("b", for: CryptKey<String>(key: "auth.refresh"))
            try store.set("c", for: CryptKey<String>(key: "auth.access"))
            // Two spellings of one key (precomposed, then decomposed) are one key.
            try store.set("d", for: CryptKey<String>(key: "caf\u{E9}"))
            try store.set("e", for: CryptKey<String>(key: "cafe\u{301}"))
            #expect(try store.itemCount() == 3)
            #expect(try store.itemCount() == store.keys().count)

            try store.delete(CryptKey<String>(key: "auth.refresh"))
            #expect(try store.itemCount() == 2)
            try store.deleteAll()
            #expect(try store.itemCount() == 0)
        }
    }

    /// Seeded random sets and deletes on the twin and on a vault: after each, both count the same.
    @Test func theTwinCountsAsTheVaultDoesForTheSameWrites() async throws {
        try await withTemporaryFolder { folder in
            let memory = InMemoryCrypt()
            let vault = try EncryptedFileCrypt(
                directory: .custom(folder),
                namespace: "secrets",
                masterKey: .symmetric(SymmetricKey(size: .bits256))
            )
            var generator = SeededGenerator(seed: 0x1C07)
            let keys = ["a", "b", "c", "d", "e", "caf\u{E9}", "cafe\u{301}"].map { CryptKey<String>(key: $0) }
            for step in 0..<60 {
                let key = keys[Int.random(in: 0..<keys.count, using: &generator)]
                if Bool.random(using: &generator) {
                    for store in [memory, vault] as [any CryptStoring] { try store.set("\(step)", for: key) }
                } else {
                    for store in [memory, vault] as [any CryptStoring] { try store.delete(key) }
                }
                #expect(try memory.itemCount() == vault.itemCount(), "after step \(step)")
            }
            #expect(try memory.itemCount() == memory.keys().count)
        }
    }

    @Test func aUsersStoresCountThroughTheLibrarysDefault() async throws {
        let table = TableCrypt(table: TableCrypt.Table(), namespace: "secrets")
        let asyncTable = AsyncTableCrypt(server: TableCrypt(table: TableCrypt.Table(), namespace: "secrets"))
        for name in ["a", "b", "caf\u{E9}", "cafe\u{301}"] {
            try table.set("x", for: CryptKey<String>(key: name))
            try await asyncTable.set("x", for: CryptKey<String>(key: name))
        }
        #expect(try table.itemCount() == 3)
        #expect(try await asyncTable.itemCount() == 3)
    }

    /// The vault counts its item files: an item that does not open, which `keys()` refuses to list, is counted.
    @Test func theVaultCountsAnItemThatDoesNotOpenWithoutOpeningIt() async throws {
        try await withTemporaryFolder { folder in
            let vault = try EncryptedFileCrypt(
                directory: .custom(folder),
                namespace: "secrets",
                masterKey: .symmetric(SymmetricKey(size: .bits256))
            )
            let token = CryptKey<String>(key: "auth.token")
            try vault.set("secret", for: token)
            try vault.set("intact", for: CryptKey<String>(key: "auth.refresh"))
            let url = vault.fileURL(for: token)
            try VaultItemDamage.flip.applied(to: try Data(contentsOf: url)).write(to: url)

            #expect(throws: CryptStoreError.self) { try vault.keys() }
            #expect(try vault.itemCount() == 2)
            // Through the contract, as a tool written for any store calls it: the vault's own count.
            let anyStore: any CryptBackend = vault
            #expect(try anyStore.itemCount() == 2)
        }
    }
}
