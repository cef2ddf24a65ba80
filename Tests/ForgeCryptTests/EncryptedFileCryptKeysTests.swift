import ForgeCore
import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeCrypt

/// `EncryptedFileCrypt.keys()`: names sealed inside the items, never in the clear, listed by every handle on
/// the folder; items of format 1 still read; tampering and unreadable folders fail the listing.
struct EncryptedFileCryptKeysTests {
    let masterKey = SymmetricKey(size: .bits256)
    let token = CryptKey<String>(key: "auth.access")
    let refresh = CryptKey<String>(key: "auth.refresh")

    private func vault(_ folder: URL, namespace: String = "secrets") throws -> EncryptedFileCrypt {
        try EncryptedFileCrypt(directory: .custom(folder), namespace: namespace, masterKey: .symmetric(masterKey))
    }

    private func expectError(_ expected: CryptStoreError, _ body: () throws -> Void) {
        #expect {
            try body()
        } throws: { error in
            (error as? CryptStoreError) == expected
        }
    }

    /// The file of a format-1 item holding `secret` for `key`, as versions before sealed names wrote it: built
    /// here from the format's description, with the item key derived from the master key and the vault's
    /// identifier, and the key name as associated data.
    private func formatOneItem(_ secret: String, for key: String, in store: EncryptedFileCrypt) throws -> Data {
        let headerBytes = try Data(contentsOf: store.folderURL.appendingPathComponent(VaultHeader.fileName))
        let header = try JSONCodec.decode(VaultHeader.self, from: headerBytes)
        let itemKey = CryptoPrimitives.deriveKey(
            from: masterKey,
            salt: header.vaultID,
            info: "forge-crypt.v1.item-encryption"
        )
        var associatedData = Data([1])
        associatedData.append(contentsOf: "forge-crypt.v1.item\u{0}".utf8)
        associatedData.append(contentsOf: key.precomposedStringWithCanonicalMapping.utf8)
        var file = Data([1])
        file.append(try CryptoPrimitives.seal(Data(secret.utf8), using: itemKey, authenticating: associatedData))
        return file
    }

    @Test func keysListsExactlyTheStoredKeysAfterSetDeleteAndDeleteAll() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder)
            #expect(try store.keys() == [])
            for name in ["b", "a", "Z", "auth.access", "caf\u{E9}"] {
                try store.set("v", for: CryptKey<String>(key: name))
            }
            try store.set("again", for: CryptKey<String>(key: "a"))
            #expect(try store.keys() == ["Z", "a", "auth.access", "b", "caf\u{E9}"])

            try store.delete(CryptKey<String>(key: "b"))
            try store.delete(CryptKey<String>(key: "cafe\u{301}"))
            #expect(try store.keys() == ["Z", "a", "auth.access"])

            try store.deleteAll()
            #expect(try store.keys() == [])
            try store.set("usable", for: token)
            #expect(try store.keys() == [token.key])
        }
    }

    @Test func anotherHandleOnTheSameFolderListsTheSameKeys() async throws {
        try await withTemporaryFolder { folder in
            let first = try vault(folder)
            try first.set("access", for: token)
            try first.set(Data([0, 1, 2]), for: CryptKey<Data>(key: "signing.key"))
            let second = try vault(folder)
            #expect(try second.keys() == ["auth.access", "signing.key"])
            #expect(try second.keys() == first.keys())

            try second.set("refresh", for: refresh)
            try second.delete(token)
            #expect(try first.keys() == ["auth.refresh", "signing.key"])
            // A neighbouring vault in the same base folder lists only its own.
            let neighbour = try vault(folder, namespace: "other")
            try neighbour.set("n", for: CryptKey<String>(key: "neighbour"))
            #expect(try first.keys() == ["auth.refresh", "signing.key"])
            #expect(try neighbour.keys() == ["neighbour"])
        }
    }

    @Test func aFormatOneItemStillReadsAndIsListedOnceItsKeyIsSetAgain() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder)
            try store.set("current", for: refresh)
            let url = store.fileURL(for: token)
            try formatOneItem("written by 1.x", for: token.key, in: store).write(to: url)

            #expect(try store.get(token) == "written by 1.x")
            #expect(try store.contains(token))
            #expect(try store.itemCount() == 2)
            // Its name is not in it: it cannot be listed yet, and is not taken for a tampered item.
            #expect(try store.keys() == [refresh.key])

            try store.set("rewritten", for: token)
            #expect(try Data(contentsOf: url).first == VaultKeys.itemFormat)
            #expect(try store.get(token) == "rewritten")
            #expect(try store.keys() == [token.key, refresh.key])
            #expect(try vault(folder).keys() == [token.key, refresh.key])
        }
    }

    @Test func aFormatOneItemFileInAnotherKeysPlaceFailsToRead() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder)
            try formatOneItem("access", for: token.key, in: store).write(to: store.fileURL(for: refresh))
            expectError(.tamperedItem(key: refresh.key)) { _ = try store.get(refresh) }
        }
    }

    @Test func swappedItemFilesMakeKeysThrowTamperedNamingAFileAndStayOnDisk() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder)
            try store.set("access", for: token)
            try store.set("refresh", for: refresh)
            let accessURL = store.fileURL(for: token)
            let refreshURL = store.fileURL(for: refresh)
            let accessFile = try Data(contentsOf: accessURL)
            let refreshFile = try Data(contentsOf: refreshURL)
            try refreshFile.write(to: accessURL)
            try accessFile.write(to: refreshURL)

            let error = #expect(throws: CryptStoreError.self) { try store.keys() }
            guard case .tamperedItem(let name) = error else {
                Issue.record("expected tamperedItem, got \(String(describing: error))")
                return
            }
            #expect([accessURL.lastPathComponent, refreshURL.lastPathComponent].contains(name))
            #expect(try Data(contentsOf: accessURL) == refreshFile)
            #expect(try Data(contentsOf: refreshURL) == accessFile)
        }
    }

    @Test(arguments: [VaultItemDamage.flip, .truncate, .empty, .unknownFormat, .formatOneByte])
    func aDamagedItemMakesKeysThrowTampered(damage: VaultItemDamage) async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder)
            try store.set("secret", for: token)
            try store.set("intact", for: refresh)
            let url = store.fileURL(for: token)
            let bytes = damage.applied(to: try Data(contentsOf: url))
            try bytes.write(to: url)

            if damage == .formatOneByte {
                // A file that says format 1 carries no name to check: listing leaves it out, reading refuses it.
                #expect(try store.keys() == [refresh.key])
            } else {
                expectError(.tamperedItem(key: url.lastPathComponent)) { _ = try store.keys() }
            }
            expectError(.tamperedItem(key: token.key)) { _ = try store.get(token) }
            #expect(try Data(contentsOf: url) == bytes)
        }
    }

    @Test func anItemCopiedFromAnotherVaultMakesKeysThrowTampered() async throws {
        try await withTemporaryFolder { folder in
            let first = try vault(folder, namespace: "first")
            let second = try vault(folder, namespace: "second")
            try first.set("from first", for: token)
            let copied = second.fileURL(for: CryptKey<String>(key: "anything"))
            try Data(contentsOf: first.fileURL(for: token)).write(to: copied)
            expectError(.tamperedItem(key: copied.lastPathComponent)) { _ = try second.keys() }
        }
    }

    @Test func noKeyNameIsOnDiskInTheClear() async throws {
        try await withTemporaryFolder { folder in
            let names = [
                "user-ada.lovelace@example.com", "très-secret-clé", "cle\u{301}-de\u{301}compose\u{301}e",
                "path/like/../name.json", String(repeating: "lengthy-name-", count: 300),
            ]
            let store = try vault(folder)
            for name in names {
                try store.set("value", for: CryptKey<String>(key: name))
            }
            try store.set(1, for: CryptKey<Int>(key: "removed-name-kept-nowhere"))
            try store.delete(CryptKey<Int>(key: "removed-name-kept-nowhere"))
            #expect(try store.keys() == names.map(\.precomposedStringWithCanonicalMapping).sorted())

            // Every byte of every file, and every name, in the whole folder: no key name in any spelling.
            let needles = (names + ["removed-name-kept-nowhere"])
                .flatMap { name in
                    [name, name.precomposedStringWithCanonicalMapping, name.decomposedStringWithCanonicalMapping]
                }
            let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            var files = 0
            while let url = enumerator?.nextObject() as? URL {
                let path = url.path.dropFirst(folder.path.count)
                for needle in needles {
                    #expect(!path.contains(needle), "\(needle) names \(path)")
                }
                guard let data = FileManager.default.contents(atPath: url.path) else { continue }
                files += 1
                for needle in needles {
                    #expect(data.range(of: Data(needle.utf8)) == nil, "\(needle) in \(url.lastPathComponent)")
                }
            }
            #expect(files == names.count + 1)  // the items and vault.json
        }
    }

    @Test func filesThatAreNotItemsAreLeftOut() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder)
            try store.set("access", for: token)
            let root = store.folderURL
            let itemName = store.fileURL(for: token).lastPathComponent
            // A crashed writer's temporary file, a hidden file, notes, a folder and a link with an item's name.
            try Data("torn".utf8).write(to: root.appendingPathComponent(TemporaryName.make(for: itemName)))
            try Data("x".utf8).write(to: root.appendingPathComponent(".hidden.secret"))
            try Data("notes".utf8).write(to: root.appendingPathComponent("notes.txt"))
            try Data("a backup".utf8).write(to: root.appendingPathComponent("backup.secret"))
            try Data("x".utf8).write(to: root.appendingPathComponent(String(repeating: "A", count: 64) + ".secret"))
            try ForeignFiles.createFolder(atPath: root.appendingPathComponent("folder.secret").path)
            let outside = folder.appendingPathComponent("outside")
            try Data(contentsOf: store.fileURL(for: token)).write(to: outside)
            try FileManager.default.createSymbolicLink(
                at: store.fileURL(for: refresh),
                withDestinationURL: outside
            )

            #expect(try store.keys() == [token.key])
            #expect(try store.itemCount() == 1)
            try store.deleteAll()
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("backup.secret").path))
        }
    }

    @Test func aRemovedVaultFolderHasNoKeys() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder)
            try store.set("access", for: token)
            try FileManager.default.removeItem(at: store.folderURL)
            #expect(try store.keys() == [])
        }
    }

    @Test func aFolderThatNowHoldsAnotherVaultIsRefused() async throws {
        try await withTemporaryFolder { folder in
            let stale = try vault(folder)
            try stale.set("access", for: token)
            try FileManager.default.removeItem(at: stale.folderURL)
            let fresh = try EncryptedFileCrypt(
                directory: .custom(folder),
                namespace: "secrets",
                masterKey: .symmetric(SymmetricKey(size: .bits256))
            )
            try fresh.set("other vault", for: refresh)
            expectError(.vaultReplaced(path: stale.folderURL.path)) { _ = try stale.keys() }
        }
    }

    @Test func aFolderThatCannotBeOpenedThrowsListFailed() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder)
            try store.set("access", for: token)
            // The folder's path now loops on itself: no one, root included, can open it.
            let moved = folder.appendingPathComponent("moved")
            try FileManager.default.moveItem(at: store.folderURL, to: moved)
            try FileManager.default.createSymbolicLink(atPath: store.folderURL.path, withDestinationPath: "secrets")
            expectError(.listFailed(underlying: .symbolicLink)) { _ = try store.keys() }
        }
    }

    @Test(.enabled(if: geteuid() != 0, "root reads every folder whatever its mode"))
    func aFolderThatMayNotBeReadThrowsListFailed() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder)
            try store.set("access", for: token)
            try ForeignFiles.setPermissions(0o000, atPath: store.folderURL.path)
            defer { try? ForeignFiles.setPermissions(0o700, atPath: store.folderURL.path) }
            expectError(.listFailed(underlying: .permissionDenied)) { _ = try store.keys() }
        }
    }
}
