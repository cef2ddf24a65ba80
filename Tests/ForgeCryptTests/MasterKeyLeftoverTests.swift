import ForgeCore
import ForgeCrypt
import ForgeTestSupport
import Foundation
import Testing

/// What a process killed while creating a key file leaves behind, and how the next open cleans it up.
struct MasterKeyLeftoverTests {
    @Test func aKeyFileCopyLeftByACrashedCreatorIsRemovedWhenTheVaultOpens() async throws {
        try await withTemporaryFolder { folder in
            let keyFile = folder.appendingPathComponent("keys/master.key")
            let vault = try EncryptedFileCrypt(
                directory: .custom(folder),
                namespace: "vault",
                masterKey: .keyFile(keyFile)
            )
            try vault.set("kept", for: CryptKey<String>(key: "token"))
            // A process id no system hands out (above every `pid_max`), so its temporary file is an orphan.
            let orphan = folder.appendingPathComponent("keys/.master.key\(TemporaryName.marker)2147483646-x")
            let live = folder.appendingPathComponent(
                "keys/.master.key\(TemporaryName.marker)\(ProcessInfo.processInfo.processIdentifier)-y"
            )
            try Data(count: 32).write(to: orphan)
            try Data(count: 32).write(to: live)

            let reopened = try EncryptedFileCrypt(
                directory: .custom(folder),
                namespace: "vault",
                masterKey: .keyFile(keyFile)
            )

            #expect(!FileManager.default.fileExists(atPath: orphan.path))
            #expect(FileManager.default.fileExists(atPath: live.path))
            #expect(try reopened.get(CryptKey<String>(key: "token")) == "kept")
        }
    }
}
