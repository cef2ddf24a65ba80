import ForgeCore
import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeCrypt

/// The vault's own promises: keys, tampering, file modes and what reaches the disk.
struct EncryptedFileCryptTests {
    let token = CryptKey<String>(key: "auth.access")
    let refresh = CryptKey<String>(key: "auth.refresh")

    private func vault(_ folder: URL, _ masterKey: MasterKey, namespace: String = "secrets") throws
        -> EncryptedFileCrypt
    {
        try EncryptedFileCrypt(directory: .custom(folder), namespace: namespace, masterKey: masterKey)
    }

    private func permissions(_ url: URL) throws -> UInt16? {
        try ForeignFiles.permissions(atPath: url.path)
    }

    private func expectError(_ expected: CryptStoreError, _ body: () throws -> Void) {
        #expect {
            try body()
        } throws: { error in
            (error as? CryptStoreError) == expected
        }
    }

    // MARK: Master keys

    @Test func aWrongSymmetricKeyIsRefusedAndTheItemsStayIntact() async throws {
        try await withTemporaryFolder { folder in
            let key = SymmetricKey(size: .bits256)
            let store = try vault(folder, .symmetric(key))
            try store.set("secret", for: token)
            let itemBytes = try Data(contentsOf: store.fileURL(for: token))

            expectError(.wrongMasterKey(path: store.folderURL.path, createdWith: .symmetric)) {
                _ = try vault(folder, .symmetric(SymmetricKey(size: .bits256)))
            }
            #expect(try Data(contentsOf: store.fileURL(for: token)) == itemBytes)
            #expect(try vault(folder, .symmetric(key)).get(token) == "secret")
        }
    }

    @Test func aWrongPassphraseOrKindOfKeyIsRefused() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder, .passphrase("right"))
            try store.set("secret", for: token)
            let wrong = CryptStoreError.wrongMasterKey(path: store.folderURL.path, createdWith: .passphrase)
            expectError(wrong) { _ = try vault(folder, .passphrase("wrong")) }
            expectError(wrong) { _ = try vault(folder, .symmetric(SymmetricKey(size: .bits256))) }
            let otherKey = folder.appendingPathComponent("other.key")
            expectError(wrong) { _ = try vault(folder, .keyFile(otherKey)) }
            #expect(!FileManager.default.fileExists(atPath: otherKey.path), "a failed open creates no key file")
            #expect(try vault(folder, .passphrase("right")).get(token) == "secret")
        }
    }

    @Test func aPassphraseVaultOpensWithAnyUnicodeSpellingOfThePassphrase() async throws {
        try await withTemporaryFolder { folder in
            try vault(folder, .passphrase("caf\u{E9}")).set("secret", for: token)
            #expect(try vault(folder, .passphrase("cafe\u{301}")).get(token) == "secret")
        }
    }

    @Test func aKeyVaultIsNotOpenedWithAPassphrase() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder, .symmetric(SymmetricKey(size: .bits256)))
            expectError(.wrongMasterKey(path: store.folderURL.path, createdWith: .symmetric)) {
                _ = try vault(folder, .passphrase("guess"))
            }
        }
    }

    @Test func theHeaderHoldsThePassphraseParametersAndNoKey() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder, .passphrase("correct horse"))
            let data = try Data(contentsOf: store.folderURL.appendingPathComponent(VaultHeader.fileName))
            let header = try JSONDecoder().decode(VaultHeader.self, from: data)
            #expect(header.format == 1)
            #expect(header.masterKey == .passphrase)
            #expect(header.passphrase?.algorithm == "PBKDF2-HMAC-SHA256")
            #expect(header.passphrase?.iterations == 600_000)
            #expect(header.passphrase?.salt.count == 32)
            #expect(header.vaultID.count == 16)
            #expect(!String(decoding: data, as: UTF8.self).contains("correct horse"))
        }
    }

    @Test func aKeyFileIsCreatedOwnerOnlyWith32Bytes() async throws {
        try await withTemporaryFolder { folder in
            let keyURL = folder.appendingPathComponent("keys/master.key")
            let store = try vault(folder, .keyFile(keyURL))
            try store.set("secret", for: token)
            #expect(try Data(contentsOf: keyURL).count == 32)
            #expect(try permissions(keyURL) == 0o600)
            #expect(try permissions(keyURL.deletingLastPathComponent()) == 0o700)
            #expect(try vault(folder, .keyFile(keyURL)).get(token) == "secret")
        }
    }

    @Test(arguments: [UInt16(0o644), 0o640, 0o604, 0o620])
    func aKeyFileOthersCanUseIsRefused(mode: UInt16) async throws {
        try await withTemporaryFolder { folder in
            let keyURL = folder.appendingPathComponent("master.key")
            _ = try vault(folder, .keyFile(keyURL))
            try ForeignFiles.setPermissions(mode, atPath: keyURL.path)
            expectError(.insecureKeyFile(path: keyURL.path, permissions: mode)) {
                _ = try vault(folder, .keyFile(keyURL))
            }
        }
    }

    @Test func aKeyFileOfTheWrongSizeOrAShortKeyOrAnEmptyPassphraseIsRefused() async throws {
        try await withTemporaryFolder { folder in
            let keyURL = folder.appendingPathComponent("short.key")
            try ForeignFiles.write(Data(repeating: 7, count: 16), toPath: keyURL.path, permissions: 0o600)
            #expect(throws: CryptStoreError.self) { _ = try vault(folder, .keyFile(keyURL), namespace: "a") }
            #expect(throws: CryptStoreError.self) {
                _ = try vault(folder, .symmetric(SymmetricKey(size: SymmetricKeySize(bitCount: 64))), namespace: "b")
            }
            #expect(throws: CryptStoreError.self) { _ = try vault(folder, .passphrase(""), namespace: "c") }
        }
    }

    // MARK: Tampering

    @Test(arguments: [VaultItemDamage.flip, .truncate, .empty, .formatOneByte, .append])
    func aTamperedItemThrowsAndStaysOnDisk(damage: VaultItemDamage) async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder, .symmetric(SymmetricKey(size: .bits256)))
            try store.set("secret", for: token)
            try store.set("intact", for: refresh)
            let url = store.fileURL(for: token)
            let bytes = damage.applied(to: try Data(contentsOf: url))
            try bytes.write(to: url)

            expectError(.tamperedItem(key: token.key)) { _ = try store.get(token) }
            #expect(try Data(contentsOf: url) == bytes)
            #expect(try store.contains(token))
            #expect(try store.get(refresh) == "intact")
        }
    }

    @Test func swappedItemFilesFailToOpen() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder, .symmetric(SymmetricKey(size: .bits256)))
            try store.set("access", for: token)
            try store.set("refresh", for: refresh)
            let accessFile = try Data(contentsOf: store.fileURL(for: token))
            try Data(contentsOf: store.fileURL(for: refresh)).write(to: store.fileURL(for: token))
            try accessFile.write(to: store.fileURL(for: refresh))

            expectError(.tamperedItem(key: token.key)) { _ = try store.get(token) }
            expectError(.tamperedItem(key: refresh.key)) { _ = try store.get(refresh) }
        }
    }

    @Test func anItemFromAnotherVaultWithTheSameKeyFailsToOpen() async throws {
        try await withTemporaryFolder { folder in
            let key = SymmetricKey(size: .bits256)
            let first = try vault(folder, .symmetric(key), namespace: "first")
            let second = try vault(folder, .symmetric(key), namespace: "second")
            try first.set("from first", for: token)
            try second.set("from second", for: token)
            #expect(first.fileURL(for: token).lastPathComponent != second.fileURL(for: token).lastPathComponent)
            try Data(contentsOf: first.fileURL(for: token)).write(to: second.fileURL(for: token))
            expectError(.tamperedItem(key: token.key)) { _ = try second.get(token) }
        }
    }

    @Test func aVaultWhoseHeaderIsGoneIsNotReplacedByANewOne() async throws {
        try await withTemporaryFolder { folder in
            let key = SymmetricKey(size: .bits256)
            let store = try vault(folder, .symmetric(key))
            try store.set("secret", for: token)
            let headerURL = store.folderURL.appendingPathComponent(VaultHeader.fileName)
            try FileManager.default.removeItem(at: headerURL)

            #expect {
                _ = try vault(folder, .symmetric(key))
            } throws: { error in
                guard case .corruptVault = error as? CryptStoreError else { return false }
                return true
            }
            #expect(!FileManager.default.fileExists(atPath: headerURL.path))
            #expect(FileManager.default.fileExists(atPath: store.fileURL(for: token).path))
        }
    }

    @Test(arguments: ["not json", #"{"format": 9}"#, ""])
    func aDamagedHeaderIsReportedAsCorrupt(contents: String) async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder, .symmetric(SymmetricKey(size: .bits256)))
            try Data(contents.utf8).write(to: store.folderURL.appendingPathComponent(VaultHeader.fileName))
            #expect {
                _ = try vault(folder, .symmetric(SymmetricKey(size: .bits256)))
            } throws: { error in
                guard case .corruptVault(let path, _) = error as? CryptStoreError else { return false }
                return path == store.folderURL.path
            }
        }
    }

    // MARK: The disk

    @Test func theFolderIsOwnerOnlyAndEveryFileTooAlsoAfterAReplacement() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder, .symmetric(SymmetricKey(size: .bits256)))
            try store.set("first", for: token)
            #expect(try permissions(store.folderURL) == 0o700)
            #expect(try permissions(store.folderURL.appendingPathComponent(VaultHeader.fileName)) == 0o600)
            #expect(try permissions(store.fileURL(for: token)) == 0o600)

            try ForeignFiles.setPermissions(0o644, atPath: store.fileURL(for: token).path)
            try store.set("second", for: token)
            #expect(try permissions(store.fileURL(for: token)) == 0o600)
            #expect(try store.get(token) == "second")
        }
    }

    @Test(arguments: [UInt16(0o755), 0o777, 0o750])
    func aWiderPreexistingFolderIsTightenedTo0700(mode: UInt16) async throws {
        try await withTemporaryFolder { folder in
            let vaultFolder = folder.appendingPathComponent("secrets", isDirectory: true)
            try ForeignFiles.createFolder(atPath: vaultFolder.path)
            try ForeignFiles.setPermissions(mode, atPath: vaultFolder.path)
            let store = try vault(folder, .symmetric(SymmetricKey(size: .bits256)))
            #expect(store.folderURL.path == vaultFolder.path)
            #expect(try permissions(vaultFolder) == 0o700)
        }
    }

    @Test func noSecretAndNoKeyNameReachesTheDisk() async throws {
        try await withTemporaryFolder { folder in
            let keyName = "user-ada.lovelace@example.com"
            let secret = "PLAINTEXT-SECRET-VALUE"
            let store = try vault(folder, .keyFile(folder.appendingPathComponent("master.key")))
            // A string is stored as its bytes, any other value as JSON: both must be sealed.
            let credentials = CryptKey<[String: String]>(key: "auth.credentials")
            try store.set(secret, for: CryptKey<String>(key: keyName))
            try store.set(["user": secret, "scope": "read"], for: credentials)

            let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            var files = 0
            while let url = enumerator?.nextObject() as? URL {
                #expect(!url.lastPathComponent.contains("lovelace"))  // not "ada": hex digits can spell it
                #expect(!url.lastPathComponent.contains("credentials"))
                guard let data = FileManager.default.contents(atPath: url.path) else { continue }
                files += 1
                for needle in [secret, keyName, credentials.key] {
                    #expect(data.range(of: Data(needle.utf8)) == nil, "\(needle) in \(url.lastPathComponent)")
                }
            }
            #expect(files == 4)  // the key file, vault.json and two items
        }
    }

    @Test func secretsPersistAcrossInstancesAndDeleteAllKeepsTheVault() async throws {
        try await withTemporaryFolder { folder in
            let keyURL = folder.appendingPathComponent("master.key")
            try vault(folder, .keyFile(keyURL)).set("persisted", for: token)
            let reopened = try vault(folder, .keyFile(keyURL))
            #expect(try reopened.get(token) == "persisted")

            try reopened.deleteAll()
            #expect(
                FileManager.default.fileExists(atPath: reopened.folderURL.appendingPathComponent("vault.json").path)
            )
            #expect(try vault(folder, .keyFile(keyURL)).get(token) == nil)
        }
    }
}
