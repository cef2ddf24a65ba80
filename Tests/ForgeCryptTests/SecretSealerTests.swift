import ForgeCrypt
import ForgeTestSupport
import Foundation
import Testing

/// The public sealer another store seals its items with: the vault's item format and name hashing, a header that
/// detects a wrong master key, items bound to their key.
struct SecretSealerTests {
    let location = "secrets table, namespace 'tests'"

    private func expectError(_ expected: CryptStoreError, _ body: () throws -> Void) {
        #expect {
            try body()
        } throws: { error in
            (error as? CryptStoreError) == expected
        }
    }

    @Test func aSecretRoundTripsThroughASealerOpenedWithTheStoredHeader() throws {
        let key = SymmetricKey(size: .bits256)
        let creator = try SecretSealer(newHeaderFor: .symmetric(key), location: location)
        let item = try creator.seal(Data("s3cr3t".utf8), for: "auth.token")

        let reopened = try SecretSealer(masterKey: .symmetric(key), header: creator.header, location: location)
        #expect(try reopened.open(item, as: Data.self, for: "auth.token") == Data("s3cr3t".utf8))
        #expect(reopened.itemName(for: "auth.token") == creator.itemName(for: "auth.token"))
        #expect(reopened.createdWith == .symmetric)
        #expect(reopened.isSameVault(asHeader: creator.header))
    }

    @Test func itemNamesAreKeyedHashesThatRevealNoKeyName() throws {
        let sealer = try SecretSealer(newHeaderFor: .symmetric(SymmetricKey(size: .bits256)), location: location)
        let other = try SecretSealer(newHeaderFor: .symmetric(SymmetricKey(size: .bits256)), location: location)
        let name = sealer.itemName(for: "caf\u{E9}")

        #expect(SecretSealer.isItemName(name))
        // Letters a hex digest never holds, so that the check cannot fail by chance ("caf" is hex).
        #expect(!sealer.itemName(for: "token").contains("tok"))
        // Canonically equivalent spellings are one key; another header names the same key differently.
        #expect(sealer.itemName(for: "cafe\u{301}") == name)
        #expect(sealer.itemName(for: "cafe") != name)
        #expect(other.itemName(for: "caf\u{E9}") != name)
        #expect(!SecretSealer.isItemName("vault.json"))
        #expect(!SecretSealer.isItemName(name.uppercased()))
        // The sealed item holds neither the key name nor the secret in the clear.
        let item = try sealer.seal(Data("plain-secret".utf8), for: "caf\u{E9}")
        #expect(item.range(of: Data("plain-secret".utf8)) == nil)
        #expect(item.range(of: Data("caf\u{E9}".utf8)) == nil)
    }

    @Test func aWrongKeyOrKindOfKeyThrowsWrongMasterKey() throws {
        let creator = try SecretSealer(newHeaderFor: .symmetric(SymmetricKey(size: .bits256)), location: location)
        expectError(.wrongMasterKey(path: location, createdWith: .symmetric)) {
            _ = try SecretSealer(
                masterKey: .symmetric(SymmetricKey(size: .bits256)),
                header: creator.header,
                location: location
            )
        }
        expectError(.wrongMasterKey(path: location, createdWith: .symmetric)) {
            _ = try SecretSealer(masterKey: .passphrase("guess"), header: creator.header, location: location)
        }
    }

    @Test func aPassphraseHeaderOpensWithThePassphraseOnly() throws {
        let creator = try SecretSealer(newHeaderFor: .passphrase("correct horse"), location: location)
        let item = try creator.seal(Data("s".utf8), for: "k")

        let reopened = try SecretSealer(
            masterKey: .passphrase("correct horse"),
            header: creator.header,
            location: location
        )
        #expect(try reopened.open(item, as: Data.self, for: "k") == Data("s".utf8))
        expectError(.wrongMasterKey(path: location, createdWith: .passphrase)) {
            _ = try SecretSealer(masterKey: .passphrase("battery staple"), header: creator.header, location: location)
        }
    }

    @Test func anItemStoredUnderAnotherKeysNameIsTampered() throws {
        let sealer = try SecretSealer(newHeaderFor: .symmetric(SymmetricKey(size: .bits256)), location: location)
        let aliceItem = try sealer.seal(Data("alice's".utf8), for: "alice")

        expectError(.tamperedItem(key: "bob")) { _ = try sealer.open(aliceItem, as: Data.self, for: "bob") }
        let bobName = sealer.itemName(for: "bob")
        expectError(.tamperedItem(key: bobName)) { _ = try sealer.key(inSealedItem: aliceItem, named: bobName) }

        var flipped = aliceItem
        flipped[flipped.index(before: flipped.endIndex)] ^= 1
        expectError(.tamperedItem(key: "alice")) { _ = try sealer.open(flipped, as: Data.self, for: "alice") }
    }

    @Test func anItemSealedUnderAnotherHeaderIsTampered() throws {
        let key = SymmetricKey(size: .bits256)
        let first = try SecretSealer(newHeaderFor: .symmetric(key), location: location)
        let second = try SecretSealer(newHeaderFor: .symmetric(key), location: location)

        let item = try first.seal(Data("s".utf8), for: "k")
        expectError(.tamperedItem(key: "k")) { _ = try second.open(item, as: Data.self, for: "k") }
        #expect(!second.isSameVault(asHeader: first.header))
    }

    @Test func valuesAreCodedAsInEveryCryptStore() throws {
        let sealer = try SecretSealer(newHeaderFor: .symmetric(SymmetricKey(size: .bits256)), location: location)

        #expect(try sealer.open(sealer.seal("text", for: "k"), as: Data.self, for: "k") == Data("text".utf8))
        #expect(try sealer.open(sealer.seal([1, 2], for: "k"), as: [Int].self, for: "k") == [1, 2])
        expectError(.decodingFailed(key: "k", underlying: "the stored bytes are not UTF-8 text")) {
            _ = try sealer.open(sealer.seal(Data([0xFF]), for: "k"), as: String.self, for: "k")
        }
        #expect(throws: CryptStoreError.self) { _ = try sealer.seal(Double.nan, for: "k") }
    }

    @Test func theKeyNameIsRecoveredFromAnItemForListing() throws {
        let sealer = try SecretSealer(newHeaderFor: .symmetric(SymmetricKey(size: .bits256)), location: location)
        let item = try sealer.seal(Data("s".utf8), for: "cafe\u{301}")

        #expect(try sealer.key(inSealedItem: item, named: sealer.itemName(for: "caf\u{E9}")) == "caf\u{E9}")
    }

    @Test func aHeaderThatIsNotAHeaderIsACorruptVault() throws {
        #expect {
            _ = try SecretSealer(
                masterKey: .symmetric(SymmetricKey(size: .bits256)),
                header: Data("{}".utf8),
                location: location
            )
        } throws: { error in
            guard case .corruptVault(let path, _) = error as? CryptStoreError else { return false }
            return path == location
        }
        expectError(.invalidMasterKey(reason: "the passphrase is empty")) {
            _ = try SecretSealer(newHeaderFor: .passphrase(""), location: location)
        }
    }

    @Test func aKeyFileMasterKeyIsCreatedForANewHeaderAndRequiredAfter() async throws {
        try await withTemporaryFolder { folder in
            let keyFile = folder.appendingPathComponent("master.key")
            let creator = try SecretSealer(newHeaderFor: .keyFile(keyFile), location: location)
            #expect(FileManager.default.fileExists(atPath: keyFile.path))
            let item = try creator.seal(Data("s".utf8), for: "k")

            let reopened = try SecretSealer(masterKey: .keyFile(keyFile), header: creator.header, location: location)
            #expect(try reopened.open(item, as: Data.self, for: "k") == Data("s".utf8))
            let missing = folder.appendingPathComponent("other.key")
            expectError(.keyFileNotFound(path: missing.standardizedFileURL.path, vaultPath: location)) {
                _ = try SecretSealer(masterKey: .keyFile(missing), header: creator.header, location: location)
            }
        }
    }

    @Test func itemsAreTheVaultsItemsByteForByte() async throws {
        try await withTemporaryFolder { folder in
            let masterKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
            let vault = try EncryptedFileCrypt(directory: .custom(folder), namespace: "v", masterKey: masterKey)
            let header = try Data(contentsOf: vault.folderURL.appendingPathComponent("vault.json"))
            let sealer = try SecretSealer(masterKey: masterKey, header: header, location: vault.folderURL.path)
            let fromVault = CryptKey<String>(key: "from.vault")
            let fromSealer = CryptKey<String>(key: "from.sealer")

            // The vault's item, named and opened by the sealer.
            try vault.set("written by the vault", for: fromVault)
            let vaultFile = vault.fileURL(for: fromVault)
            #expect(vaultFile.lastPathComponent == sealer.itemName(for: fromVault.key) + ".secret")
            #expect(
                try sealer.open(Data(contentsOf: vaultFile), as: String.self, for: fromVault.key)
                    == "written by the vault"
            )

            // The sealer's item, placed in the vault folder, read and listed by the vault.
            let item = try sealer.seal(Data("written by the sealer".utf8), for: fromSealer.key)
            try item.write(to: vault.fileURL(for: fromSealer))
            #expect(try vault.get(fromSealer) == "written by the sealer")
            #expect(try vault.keys() == [fromSealer.key, fromVault.key])
        }
    }
}
