import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeCrypt

/// `itemCount()`, `itemCount(directory:namespace:)` and `vaultExists(directory:namespace:)`.
struct EncryptedFileCryptInspectionTests {
    private let key = SymmetricKey(size: .bits256)

    @Test func itemCountCountsItemsWithAndWithoutTheMasterKey() async throws {
        try await withTemporaryFolder { folder in
            let vault = try EncryptedFileCrypt(
                directory: .custom(folder),
                namespace: "secrets",
                masterKey: .symmetric(key)
            )
            #expect(try vault.itemCount() == 0)

            try vault.set("a", for: CryptKey<String>(key: "auth.access"))
            try vault.set("b", for: CryptKey<String>(key: "auth.refresh"))
            try vault.set("c", for: CryptKey<String>(key: "auth.access"))
            #expect(try vault.itemCount() == 2)
            #expect(try EncryptedFileCrypt.itemCount(directory: .custom(folder), namespace: "secrets") == 2)

            try vault.deleteAll()
            #expect(try vault.itemCount() == 0)
        }
    }

    @Test func vaultExistsOnlyOnceAVaultWasOpenedAndChangesNothing() async throws {
        try await withTemporaryFolder { temporary in
            // A folder not made yet: looking must not make it.
            let folder = temporary.appendingPathComponent("vaults", isDirectory: true)
            #expect(!EncryptedFileCrypt.vaultExists(directory: .custom(folder), namespace: "secrets"))
            #expect(try EncryptedFileCrypt.itemCount(directory: .custom(folder), namespace: "secrets") == 0)
            #expect(!FileManager.default.fileExists(atPath: folder.path))

            _ = try EncryptedFileCrypt(directory: .custom(folder), namespace: "secrets", masterKey: .symmetric(key))
            #expect(EncryptedFileCrypt.vaultExists(directory: .custom(folder), namespace: "secrets"))
            #expect(!EncryptedFileCrypt.vaultExists(directory: .custom(folder), namespace: "other"))
        }
    }
}
