import ForgeCrypt
import ForgeTestSupport
import Foundation
import Testing

/// The samples of the "Changing the master key" article, run: the article quotes them.
struct MasterKeyRotationSampleTests {
    let token = CryptKey<String>(key: "auth.access")

    @Test func aUserChangesThePassphrase() async throws {
        try await withTemporaryFolder { dataFolder in
            let oldPassphrase = "correct horse battery staple"
            let newPassphrase = "staple battery horse correct"
            var secrets = try EncryptedFileCrypt(
                directory: .custom(dataFolder),
                namespace: "secrets",
                masterKey: .passphrase(oldPassphrase)
            )
            try secrets.set("s3cr3t", for: token)
            var progress = 0.0

            secrets = try secrets.rotateMasterKey(to: .passphrase(newPassphrase)) { step in
                if case .resealed(let done, let total) = step { progress = Double(done) / Double(total) }
            }

            #expect(progress == 1)
            #expect(try secrets.get(token) == "s3cr3t")
        }
    }

    @Test func aToolMovesAVaultToANewKeyFile() async throws {
        try await withTemporaryFolder { dataFolder in
            let oldKeyURL = dataFolder.appendingPathComponent("master.key")
            let newKeyURL = dataFolder.appendingPathComponent("master-2.key")
            try EncryptedFileCrypt(directory: .custom(dataFolder), namespace: "secrets", masterKey: .keyFile(oldKeyURL))
                .set("s3cr3t", for: token)

            // Run it again after a crash: it finishes the rotation, or finds it done.
            let secrets = try EncryptedFileCrypt.rotateMasterKey(
                directory: .custom(dataFolder),
                namespace: "secrets",
                from: .keyFile(oldKeyURL),
                to: .keyFile(newKeyURL)
            )

            #expect(try secrets.get(token) == "s3cr3t")
        }
    }

    @Test func aServiceRotatesThroughTheProtocolAndIsTestedOnTheTwin() throws {
        func rotate(_ secrets: some MasterKeyRotating, to newKey: MasterKey) throws -> [MasterKeyRotationStep] {
            var steps: [MasterKeyRotationStep] = []
            try secrets.rotateMasterKey(to: newKey) { steps.append($0) }
            return steps
        }

        let twin = try InMemoryCrypt(masterKey: .passphrase("old"))
        try twin.set("s3cr3t", for: CryptKey<String>("token"))
        let steps = try rotate(twin.reportingEvents { _ in }, to: .passphrase("new"))
        #expect(steps.first == .began(itemCount: 1) && steps.last == .finished)
        #expect(try twin.get(CryptKey<String>("token")) == "s3cr3t")
    }
}
