import ForgeCore
import ForgeCrypt
import ForgeFileStore
import ForgeKVStore
import ForgeTestSupport
import Foundation
import Testing

extension ReliabilitySuites {
    /// Saves that do not fit on a small volume: each reports that the disk is full, keeps the old value, and
    /// leaves nothing behind.
    @Suite(
        "Full disk",
        .enabled(if: SmallVolume.isAvailable, Comment(rawValue: SmallVolume.unavailableReason))
    )
    struct FullDiskTests {
        /// Larger than the volume, so every save of it fails part-way through.
        static let tooLarge = String(repeating: "x", count: 1_024 * 1_024)

        @Test func aKeyValueSaveThatDoesNotFitKeepsTheOldValueAndLeavesNothing() throws {
            let volume = try SmallVolume(bytes: 512 * 1_024)
            defer { volume.unmount() }
            let store = DiskKVStore(directory: .custom(volume.url), namespace: "settings")
            let key = KVKey<String>("profile")
            try store.set(key, value: "old")
            let free = try volume.freeBytes()

            let error = #expect(throws: KVStoreError.self) { try store.set(key, value: Self.tooLarge) }
            #expect(error == .writeFailed(key: "profile", underlying: .outOfSpace), "\(String(describing: error))")
            #expect(store.get(key) == "old")
            #expect(volume.temporaryNames() == [])
            #expect(try volume.freeBytes() == free)

            let another = #expect(throws: KVStoreError.self) {
                try store.set(KVKey<String>("new"), value: Self.tooLarge)
            }
            #expect(another?.reason == .outOfSpace)
            #expect(!store.contains(KVKey<String>("new")))
            try store.set(key, value: "new")
            #expect(store.get(key) == "new")
        }

        @Test func aFileSaveThatDoesNotFitIsOutOfSpaceKeepsTheOldFileAndLeavesNoFolder() async throws {
            let volume = try SmallVolume(bytes: 512 * 1_024)
            defer { volume.unmount() }
            let store = DiskFileStore(directory: .custom(volume.url), namespace: "files")
            try await store.save(Data("old".utf8), to: "docs/report.txt")
            let free = try volume.freeBytes()

            await #expect(throws: FileStoreError.writeFailed(path: "docs/report.txt", reason: .outOfSpace)) {
                try await store.save(Data(Self.tooLarge.utf8), to: "docs/report.txt")
            }
            await #expect(throws: FileStoreError.writeFailed(path: "new/folder/big.bin", reason: .outOfSpace)) {
                try await store.save(Data(Self.tooLarge.utf8), to: "new/folder/big.bin")
            }
            #expect(try await store.load("docs/report.txt") == Data("old".utf8))
            let listed = try await store.list(in: "")
            #expect(listed == ["docs/"], "no folder of the save that did not fit is left")
            #expect(volume.temporaryNames() == [])
            #expect(try volume.freeBytes() == free)
            try await store.save(Data("new".utf8), to: "docs/report.txt")
            #expect(try await store.load("docs/report.txt") == Data("new".utf8))
        }

        @Test func aSecretThatDoesNotFitKeepsTheOldSecretAndLeavesNothing() throws {
            let volume = try SmallVolume(bytes: 512 * 1_024)
            defer { volume.unmount() }
            let vault = try EncryptedFileCrypt(
                directory: .custom(volume.url),
                namespace: "vault",
                masterKey: .keyFile(volume.url.appendingPathComponent("master.key"))
            )
            let key = CryptKey<String>(key: "auth.token")
            try vault.set("old", for: key)
            let free = try volume.freeBytes()

            let error = #expect(throws: CryptStoreError.self) { try vault.set(Self.tooLarge, for: key) }
            #expect(error == .writeFailed(key: "auth.token", underlying: .outOfSpace), "\(String(describing: error))")
            #expect(try vault.get(key) == "old")
            #expect(volume.temporaryNames() == [])
            #expect(try volume.freeBytes() == free)
            try vault.set("new", for: key)
            #expect(try vault.get(key) == "new")
        }

        @Test func aVolumeFilledByOtherFilesFailsEachSaveCleanlyUntilSpaceIsFreed() async throws {
            let volume = try SmallVolume(bytes: 256 * 1_024)
            defer { volume.unmount() }
            let store = DiskFileStore(directory: .custom(volume.url), namespace: "files")
            let values = DiskKVStore(directory: .custom(volume.url), namespace: "settings")
            try values.set(KVKey<Int>("count"), value: 1)
            var saved: [String: Int] = [:]
            // Large files first, then page-sized ones, until not one more page fits.
            for size in [16 * 1_024, 4 * 1_024, 1] {
                while saved.count < 1_000 {
                    let path = "fill/\(saved.count).bin"
                    do {
                        try await store.save(Data(count: size), to: path)
                        saved[path] = size
                    } catch FileStoreError.writeFailed(_, .outOfSpace) {
                        break
                    }
                }
            }
            #expect(!saved.isEmpty && saved.count < 1_000)
            #expect(throws: KVStoreError.self) { try values.set(KVKey<Int>("count"), value: Int.max) }
            #expect(values.get(KVKey<Int>("count")) == 1)
            #expect(volume.temporaryNames() == [])
            for (path, size) in saved { #expect(try await store.load(path).count == size) }

            try await store.delete("fill/0.bin")
            try values.set(KVKey<Int>("count"), value: 2)
            #expect(values.get(KVKey<Int>("count")) == 2)
        }
    }
}
