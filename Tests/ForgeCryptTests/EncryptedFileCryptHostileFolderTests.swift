import ForgeCore
import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeCrypt

/// The vault when its folder is changed underneath it: links planted, the folder or header removed, opens
/// that fail, and the tampering the vault does and does not detect.
struct EncryptedFileCryptHostileFolderTests {
    let token = CryptKey<String>(key: "auth.access")

    private func vault(_ folder: URL, _ masterKey: MasterKey) throws -> EncryptedFileCrypt {
        try EncryptedFileCrypt(directory: .custom(folder), namespace: "secrets", masterKey: masterKey)
    }

    private func exists(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.path)
    }

    // MARK: Links

    @Test func aLinkedItemIsNeitherReadNorCountedAndDeleteAllRemovesOnlyTheLink() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder, .symmetric(SymmetricKey(size: .bits256)))
            try store.set("revoked-token", for: token)
            let item = store.fileURL(for: token)
            let outside = folder.appendingPathComponent("moved-out.secret")
            try FileManager.default.moveItem(at: item, to: outside)
            try FileManager.default.createSymbolicLink(at: item, withDestinationURL: outside)
            let outsideBytes = try Data(contentsOf: outside)

            #expect(try store.get(token) == nil)
            #expect(try !store.contains(token))
            #expect(try store.itemCount() == 0)
            try store.deleteAll()
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: item.path)) == nil, "link removed")
            #expect(try Data(contentsOf: outside) == outsideBytes, "its target is untouched")
            #expect(try store.get(token) == nil)
        }
    }

    @Test func aLinkedItemIsReplacedByTheNextSetNotWrittenThrough() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder, .symmetric(SymmetricKey(size: .bits256)))
            let item = store.fileURL(for: token)
            let outside = folder.appendingPathComponent("target")
            try Data("outside".utf8).write(to: outside)
            try FileManager.default.createSymbolicLink(at: item, withDestinationURL: outside)

            try store.set("new", for: token)
            #expect(try store.get(token) == "new")
            #expect(try Data(contentsOf: outside) == Data("outside".utf8))
        }
    }

    @Test func aLinkedHeaderIsNotFollowed() async throws {
        try await withTemporaryFolder { folder in
            let key = SymmetricKey(size: .bits256)
            let store = try vault(folder, .symmetric(key))
            let header = store.folderURL.appendingPathComponent(VaultHeader.fileName)
            let outside = folder.appendingPathComponent("header-copy.json")
            try FileManager.default.moveItem(at: header, to: outside)
            try FileManager.default.createSymbolicLink(at: header, withDestinationURL: outside)

            #expect(throws: CryptStoreError.self) { _ = try vault(folder, .symmetric(key)) }
            #expect(throws: CryptStoreError.self) { try store.set("secret", for: token) }
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: header.path) == outside.path)
        }
    }

    // MARK: The folder removed under an open store

    @Test func aVaultFolderRemovedUnderAnOpenStoreGetsItsHeaderBackOnTheNextSet() async throws {
        try await withTemporaryFolder { folder in
            let key = SymmetricKey(size: .bits256)
            let store = try vault(folder, .symmetric(key))
            try store.set("before", for: token)
            try FileManager.default.removeItem(at: store.folderURL)

            #expect(try store.get(token) == nil)
            try store.set("after", for: token)
            let reopened = try vault(folder, .symmetric(key))
            #expect(try reopened.get(token) == "after")
            #expect(try ForeignFiles.permissions(atPath: store.folderURL.path) == 0o700)
        }
    }

    @Test func aRemovedHeaderIsRestoredByTheNextSet() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder, .passphrase("correct horse"))
            try store.set("kept", for: token)
            try FileManager.default.removeItem(at: store.folderURL.appendingPathComponent(VaultHeader.fileName))

            try store.set("kept too", for: CryptKey<String>(key: "other"))
            let reopened = try vault(folder, .passphrase("correct horse"))
            #expect(try reopened.get(token) == "kept")
            #expect(try reopened.get(CryptKey<String>(key: "other")) == "kept too")
        }
    }

    @Test func aSetIntoAFolderThatNowHoldsAnotherVaultFailsAndWritesNothing() async throws {
        try await withTemporaryFolder { folder in
            let first = try vault(folder, .symmetric(SymmetricKey(size: .bits256)))
            try FileManager.default.removeItem(at: first.folderURL)
            let secondKey = SymmetricKey(size: .bits256)
            let second = try vault(folder, .symmetric(secondKey))

            try second.set("theirs", for: CryptKey<String>(key: "theirs"))
            let replaced = CryptStoreError.vaultReplaced(path: first.folderURL.path)

            #expect(throws: replaced) { try first.set("lost", for: token) }
            #expect(throws: replaced) { try first.deleteAll() }
            #expect(throws: replaced) { try first.itemCount() }
            #expect(try second.itemCount() == 1)
            #expect(try vault(folder, .symmetric(secondKey)).get(token) == nil)
            #expect(try vault(folder, .symmetric(secondKey)).get(CryptKey<String>(key: "theirs")) == "theirs")
        }
    }

    @Test func aStaleStoreNeverLeavesAnItemInAVaultCreatedInItsFolderMeanwhile() async throws {
        try await withTemporaryFolder { folder in
            let stale = try vault(folder, .symmetric(SymmetricKey(size: .bits256)))
            let stop = LockedState(false)
            // How many `set` calls the stale store has finished, newest first.
            let (finished, progress) = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingNewest(1))
            // The stale store writes without pause while its folder is removed and a new vault made there, again and
            // again. A write may be under way when the new vault appears; once it has returned, the new vault must
            // hold none of the stale store's items.
            let writer = Task {
                try await onOwnThread {
                    var count = 0
                    while !stop.withLock({ $0 }) {
                        _ = try? stale.set("stale", for: CryptKey<String>(key: "k\(count % 8)"))
                        count += 1
                        progress.yield(count)
                    }
                    progress.finish()
                }
            }
            var calls = finished.makeAsyncIterator()
            var leaks: [String] = []
            for round in 0..<150 {
                try? FileManager.default.removeItem(at: stale.folderURL)
                // The stale store may restore its own header first: then this round has no new vault to look at.
                guard let fresh = try? vault(folder, .symmetric(SymmetricKey(size: .bits256))) else { continue }
                // Wait until a call that started after the new vault appeared has finished.
                let seen = await calls.next() ?? 0
                while let count = await calls.next(), count < seen + 2 {}
                if let count = try? fresh.itemCount(), count > 0 { leaks.append("round \(round): \(count) item(s)") }
            }
            stop.withLock { $0 = true }
            try await writer.value
            #expect(leaks.isEmpty, "items of the stale store left inside new vaults: \(leaks.prefix(5))")
        }
    }

    // MARK: Opens that fail change nothing

    @Test func anExistingVaultIsNeverGivenANewKeyFile() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder, .keyFile(folder.appendingPathComponent("master.key")))
            try store.set("secret", for: token)
            let missing = folder.appendingPathComponent("elsewhere/keys/master.key")

            #expect(throws: CryptStoreError.keyFileNotFound(path: missing.path, vaultPath: store.folderURL.path)) {
                _ = try vault(folder, .keyFile(missing))
            }
            #expect(!exists(folder.appendingPathComponent("elsewhere")))
        }
    }

    @Test func aMasterKeyThatCanNeverWorkIsRefusedBeforeAnythingIsCreated() async throws {
        try await withTemporaryFolder { folder in
            let namespaceFolder = StorageDirectory.custom(folder).folderURL(forNamespace: "secrets")
            #expect(throws: CryptStoreError.invalidMasterKey(reason: "the passphrase is empty")) {
                _ = try vault(folder, .passphrase(""))
            }
            #expect(throws: CryptStoreError.self) {
                _ = try vault(folder, .symmetric(SymmetricKey(size: SymmetricKeySize(bitCount: 64))))
            }
            #expect(!exists(namespaceFolder))
        }
    }

    @Test func aWrongMasterKeyLeavesTheFolderAsItWas() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder, .symmetric(SymmetricKey(size: .bits256)))
            try ForeignFiles.setPermissions(0o755, atPath: store.folderURL.path)
            #expect(throws: CryptStoreError.wrongMasterKey(path: store.folderURL.path, createdWith: .symmetric)) {
                _ = try vault(folder, .symmetric(SymmetricKey(size: .bits256)))
            }
            #expect(try ForeignFiles.permissions(atPath: store.folderURL.path) == 0o755)
        }
    }

    @Test func aNewVaultThatCannotBeCreatedLeavesNoFolderBehind() async throws {
        try await withTemporaryFolder { folder in
            // The key file's folder is a regular file, so the key file cannot be created.
            let blocker = folder.appendingPathComponent("not-a-folder")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("x".utf8).write(to: blocker)
            #expect(throws: CryptStoreError.self) {
                _ = try vault(folder, .keyFile(blocker.appendingPathComponent("master.key")))
            }
            #expect(!exists(StorageDirectory.custom(folder).folderURL(forNamespace: "secrets")))
        }
    }

    // MARK: The threat model: what is detected and what is not

    @Test func aRolledBackItemIsNotDetected() async throws {
        // Documented in the Guarantees article and ForgeCrypt's "Choosing a store": each item is authenticated on
        // its own, so an older copy of the same item, or a deleted item restored from a backup, still opens.
        try await withTemporaryFolder { folder in
            let store = try vault(folder, .symmetric(SymmetricKey(size: .bits256)))
            try store.set("revoked-token", for: token)
            let old = try Data(contentsOf: store.fileURL(for: token))
            try store.set("current-token", for: token)
            try old.write(to: store.fileURL(for: token))
            #expect(try store.get(token) == "revoked-token")

            try store.delete(token)
            try old.write(to: store.fileURL(for: token))
            #expect(try store.get(token) == "revoked-token")
        }
    }
}
