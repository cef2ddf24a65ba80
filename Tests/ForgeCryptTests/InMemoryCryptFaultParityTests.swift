import ForgeCore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeCrypt

/// An injected fault on ``InMemoryCrypt`` throws exactly what the real stores throw in the same situation.
struct InMemoryCryptFaultParityTests {
    let token = CryptKey<String>(key: "auth.access")

    @Test func aLockedDeviceFailsLikeTheKeychainLogicOverALockedKeychain() throws {
        let keychain = FakeKeychain()
        let real = KeychainCrypt(
            service: "com.example.app",
            accessGroup: nil,
            accessibility: .whenUnlocked,
            synchronizable: false,
            keychain: keychain
        )
        let faults = StoreFaults()
        let memory = InMemoryCrypt(faults: faults)
        try real.set("abc", for: token)
        try memory.set("abc", for: token)
        keychain.isLocked = true
        faults.failAlways(.all, with: .deviceLocked)

        expectSameError(try real.get(token), try memory.get(token))
        expectSameError(try real.set("new", for: token), try memory.set("new", for: token))
        expectSameError(try real.contains(token), try memory.contains(token))
        expectSameError(try real.keys(), try memory.keys())
    }

    @Test(arguments: [
        (StoreFailure.outOfSpace, ENOSPC), (.permissionDenied, EACCES), (.corruptData, EIO),
    ])
    func aFailedListingIsWhatTheVaultsMappingMakesOfTheFaultsErrno(failure: StoreFailure, code: Int32) throws {
        let memory = InMemoryCrypt(faults: StoreFaults([.always(.list, with: failure)]))
        try memory.set("abc", for: token)
        let error = #expect(throws: CryptStoreError.self) { try memory.keys() }
        // EncryptedFileCrypt throws what the vault's one mapping makes of the FileSystemError its listing meets.
        #expect(error == CryptStoreError(listing: FileSystemError(.list, path: "", code: code)))
        #expect(error?.reason == FileSystemError(.list, path: "", code: code).reason)
    }

    @Test(.enabled(if: geteuid() != 0, "root reads every folder whatever its mode"))
    func aFolderThatCannotBeListedFailsLikeAPermissionFault() async throws {
        try await withTemporaryFolder { folder in
            let vault = try EncryptedFileCrypt(
                directory: .custom(folder),
                namespace: "secrets",
                masterKey: .symmetric(SymmetricKey(size: .bits256))
            )
            try vault.set("abc", for: token)
            try ForeignFiles.setPermissions(0o000, atPath: vault.folderURL.path)
            defer { try? ForeignFiles.setPermissions(0o700, atPath: vault.folderURL.path) }

            let memory = InMemoryCrypt(faults: StoreFaults([.always(.list, with: .permissionDenied)]))
            try memory.set("abc", for: token)
            expectSameError(try vault.keys(), try memory.keys())
        }
    }

    @Test func corruptDataFailsLikeATamperedVaultItem() async throws {
        try await withTemporaryFolder { folder in
            let vault = try EncryptedFileCrypt(
                directory: .custom(folder),
                namespace: "secrets",
                masterKey: .symmetric(SymmetricKey(size: .bits256))
            )
            try vault.set("abc", for: token)
            var bytes = try Data(contentsOf: vault.fileURL(for: token))
            bytes[bytes.count - 1] ^= 0xFF
            try bytes.write(to: vault.fileURL(for: token))

            let memory = InMemoryCrypt(faults: StoreFaults([.always(.read, with: .corruptData)]))
            try memory.set("abc", for: token)
            expectSameError(try vault.get(token), try memory.get(token))
            #expect(try vault.contains(token) == memory.contains(token))
        }
    }

    /// Expects both calls to throw the same ``CryptStoreError``.
    private func expectSameError<A, B>(
        _ real: @autoclosure () throws -> A,
        _ memory: @autoclosure () throws -> B,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let realError = #expect(throws: CryptStoreError.self, sourceLocation: sourceLocation) { _ = try real() }
        let memoryError = #expect(throws: CryptStoreError.self, sourceLocation: sourceLocation) { _ = try memory() }
        #expect(realError == memoryError, sourceLocation: sourceLocation)
    }
}
