import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeCrypt

/// Each vault operation on one key looks up the key's item (its file name and authenticated data) once: a `get`
/// used to look it up to find the file and again to open it, and a `set` to seal the value and again to name the
/// file.
struct VaultItemLookupTests {
    let token = CryptKey<String>(key: "auth.access")

    /// A vault in `folder` under a new random key.
    private func vault(_ folder: URL) throws -> EncryptedFileCrypt {
        try EncryptedFileCrypt(
            directory: .custom(folder),
            namespace: "secrets",
            masterKey: .symmetric(SymmetricKey(size: .bits256))
        )
    }

    /// What `body` returns, and how many item look-ups on `keys` it took.
    private func counting<Result>(
        _ keys: VaultKeys,
        _ body: () throws -> Result
    ) rethrows -> (result: Result, lookups: Int) {
        let before = keys.itemLookups
        let result = try body()
        return (result, keys.itemLookups - before)
    }

    @Test func aGetLooksUpItsItemOnce() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder)
            try store.set("secret", for: token)
            // The first read after the write, and a later one: each is one look-up, cached or not.
            for _ in 0..<2 {
                let read = try counting(store.vault.keys) { try store.get(token) }
                #expect(read.result == "secret")
                #expect(read.lookups == 1)
            }
        }
    }

    @Test func aGetOfAMissingKeyLooksUpItsItemOnce() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder)
            let read = try counting(store.vault.keys) { try store.get(token) }
            #expect(read.result == nil)
            #expect(read.lookups == 1)
        }
    }

    @Test func aSetLooksUpItsItemOnce() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder)
            // A new item, then a replaced one.
            for value in ["first", "second"] {
                let write = try counting(store.vault.keys) { try store.set(value, for: token) }
                #expect(write.lookups == 1)
            }
            #expect(try store.get(token) == "second")
        }
    }

    @Test func containsAndDeleteLookUpTheirItemOnce() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder)
            try store.set("secret", for: token)
            let contains = try counting(store.vault.keys) { try store.contains(token) }
            #expect(contains.result)
            #expect(contains.lookups == 1)
            let delete = try counting(store.vault.keys) { try store.delete(token) }
            #expect(delete.lookups == 1)
            #expect(try store.get(token) == nil)
        }
    }

    @Test func listingTheKeysLooksUpNoItem() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder)
            try store.set("secret", for: token)
            // Listing checks each file's sealed name against the file's name, without the cache of items.
            let listing = try counting(store.vault.keys) { try store.keys() }
            #expect(listing.result == [token.key])
            #expect(listing.lookups == 0)
        }
    }

    @Test func aSealerSealsAndOpensWithOneLookUpEach() throws {
        let sealer = try SecretSealer(
            newHeaderFor: .symmetric(SymmetricKey(size: .bits256)),
            location: "secrets table, namespace 'tests'"
        )
        let sealed = try counting(sealer.keys) { try sealer.seal("secret", for: token.key) }
        #expect(sealed.lookups == 1)
        let opened = try counting(sealer.keys) { try sealer.open(sealed.result, as: String.self, for: token.key) }
        #expect(opened.result == "secret")
        #expect(opened.lookups == 1)
    }

    @Test func aSealerItemLookedUpOnceSealsAndOpensWithoutAnother() throws {
        let sealer = try SecretSealer(
            newHeaderFor: .symmetric(SymmetricKey(size: .bits256)),
            location: "secrets table, namespace 'tests'"
        )
        let item = counting(sealer.keys) { sealer.item(for: token.key) }
        #expect(item.lookups == 1)
        #expect(item.result.name == sealer.itemName(for: token.key))
        let roundTrip = try counting(sealer.keys) {
            try sealer.open(sealer.seal(Data("secret".utf8), as: item.result), as: item.result)
        }
        #expect(roundTrip.result == Data("secret".utf8))
        #expect(roundTrip.lookups == 0)
        // What the item sealed opens as the key's item, the way the typed API opens it.
        let sealed = try sealer.seal(Data("secret".utf8), as: item.result)
        #expect(try sealer.open(sealed, as: String.self, for: token.key) == "secret")
    }
}
