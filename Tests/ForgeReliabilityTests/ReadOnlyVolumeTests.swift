import ForgeCore
import ForgeCrypt
import ForgeFileStore
import ForgeKVStore
import ForgeTestSupport
import Foundation
import Testing

extension ReliabilitySuites {
    /// A volume made read-only under the stores: writes fail with a typed error, reads keep working, and
    /// nothing changes.
    @Suite(
        "Read-only volume",
        .enabled(if: SmallVolume.isAvailable, Comment(rawValue: SmallVolume.unavailableReason))
    )
    struct ReadOnlyVolumeTests {
        @Test func everyStoreReadsButRefusesToWriteWithATypedError() async throws {
            let volume = try SmallVolume(bytes: 512 * 1_024)
            defer { volume.unmount() }
            let directory = StorageDirectory.custom(volume.url)
            let masterKey = MasterKey.keyFile(volume.url.appendingPathComponent("master.key"))
            let values = DiskKVStore(directory: directory, namespace: "settings")
            let files = DiskFileStore(directory: directory, namespace: "files")
            let vault = try EncryptedFileCrypt(directory: directory, namespace: "vault", masterKey: masterKey)
            try values.set(KVKey<String>("name"), value: "old")
            try await files.save(Data("old".utf8), to: "docs/a.txt")
            try vault.set("old", for: CryptKey<String>(key: "token"))
            try volume.makeReadOnly()

            #expect(throws: KVStoreError.writeFailed(key: "name", underlying: .readOnlyVolume)) {
                try values.set(KVKey<String>("name"), value: "new")
            }
            #expect(throws: KVStoreError.removeFailed(key: "name", underlying: .readOnlyVolume)) {
                try values.remove(KVKey<String>("name"))
            }
            #expect(throws: KVStoreError.removeAllFailed(underlying: .readOnlyVolume)) { try values.removeAll() }
            #expect(values.get(KVKey<String>("name")) == "old")

            await #expect(throws: FileStoreError.writeFailed(path: "docs/a.txt", reason: .readOnlyVolume)) {
                try await files.save(Data("new".utf8), to: "docs/a.txt")
            }
            await #expect(throws: FileStoreError.deleteFailed(path: "docs/a.txt", reason: .readOnlyVolume)) {
                try await files.delete("docs/a.txt")
            }
            await #expect(throws: FileStoreError.deleteFailed(path: "", reason: .readOnlyVolume)) {
                try await files.deleteAll()
            }
            #expect(try await files.load("docs/a.txt") == Data("old".utf8))

            let reopened = try EncryptedFileCrypt(directory: directory, namespace: "vault", masterKey: masterKey)
            #expect(throws: CryptStoreError.writeFailed(key: "token", underlying: .readOnlyVolume)) {
                try reopened.set("new", for: CryptKey<String>(key: "token"))
            }
            #expect(throws: CryptStoreError.removeAllFailed(underlying: .readOnlyVolume)) { try reopened.deleteAll() }
            #expect(try reopened.get(CryptKey<String>(key: "token")) == "old")
            #expect(DiskKVStore(directory: directory, namespace: "settings").get(KVKey<String>("name")) == "old")
        }
    }
}
