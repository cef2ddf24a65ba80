import ArgumentParser
import ForgeStorage
import Foundation
import TaskFlow
import Testing

@testable import forge

/// `forge vault rotate`, run in-process on fresh temporary data folders made by the demo.
struct VaultRotateToolTests {
    /// Runs `body` with the path of a fresh folder that does not exist yet, removed afterwards.
    private func withRoot(_ body: (String) async throws -> Void) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("forge-tool-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try await body(root.path)
    }

    private func vault(_ root: String, _ masterKey: MasterKey) throws -> EncryptedFileCrypt {
        try EncryptedFileCrypt(
            directory: .custom(URL(fileURLWithPath: root)),
            namespace: DataRoot.secretsNamespace,
            masterKey: masterKey
        )
    }

    /// Runs `vault rotate` with `arguments` and `environment`, and returns what it printed.
    private func rotate(_ arguments: [String], environment: [String: String] = [:]) async throws -> String {
        var output = CapturedOutput(isTerminal: false)
        try await VaultCommand.Rotate.parse(arguments).run(environment: environment, to: &output)
        return output.text
    }

    @Test func aKeyFileVaultMovesToANewKeyFileAndRunningItAgainFindsItDone() async throws {
        try await withRoot { root in
            try await DemoCommand.parse(["--root", root]).run()
            let oldKey = MasterKey.keyFile(URL(fileURLWithPath: root + "/" + DataRoot.keyFileName))
            let token = try #require(try vault(root, oldKey).get(AuthKeys.accessToken))
            let newKeyFile = root + "/keys/master-2.key"

            let printed = try await rotate(["--root", root, "--new-key-file", newKeyFile])
            #expect(printed.contains("Sealing 1 item of 'secrets' under the new key"))
            #expect(printed.contains("'secrets' opens with the new key only: 1 item."))
            #expect(try vault(root, .keyFile(URL(fileURLWithPath: newKeyFile))).get(AuthKeys.accessToken) == token)
            #expect(throws: CryptStoreError.self) { _ = try vault(root, oldKey) }

            let again = try await rotate(["--root", root, "--new-key-file", newKeyFile])
            #expect(again.contains("already has this key: nothing to do"))
        }
    }

    @Test func aPassphraseVaultMovesToANewPassphrase() async throws {
        try await withRoot { root in
            let environment = [
                VaultKeyOptions.passphraseVariable: "old words here",
                NewVaultKeyOptions.passphraseVariable: "new words here",
            ]
            try await DemoCommand.parse(["--root", root, "--passphrase"]).run(environment: environment)
            let token = try vault(root, .passphrase("old words here")).get(AuthKeys.accessToken)

            _ = try await rotate(["--root", root, "--passphrase", "--new-passphrase"], environment: environment)

            #expect(try vault(root, .passphrase("new words here")).get(AuthKeys.accessToken) == token)
            let reveal = ["--root", root, "--reveal", AuthKeys.accessToken.key, "--passphrase"]
            try await InspectCommand.parse(reveal)
                .run(environment: [VaultKeyOptions.passphraseVariable: "new words here"])
        }
    }

    @Test func theNewKeyAndTheNamespaceAreChecked() async throws {
        try await withRoot { root in
            try await DemoCommand.parse(["--root", root]).run()
            await #expect(throws: ForgeError.missingNewMasterKey) { _ = try await rotate(["--root", root]) }
            await #expect(throws: ForgeError.conflictingMasterKeys) {
                _ = try await rotate(["--root", root, "--new-key-file", root + "/new.key", "--new-passphrase"])
            }
            await #expect(throws: ForgeError.emptyPassphrase) {
                _ = try await rotate(
                    ["--root", root, "--new-passphrase"],
                    environment: [NewVaultKeyOptions.passphraseVariable: ""]
                )
            }
            await #expect(
                throws: ForgeError.wrongKind(namespace: DataRoot.settingsNamespace, kind: .keyValue, expected: .vault)
            ) {
                _ = try await rotate(
                    ["--root", root, "--namespace", DataRoot.settingsNamespace, "--new-key-file", root + "/new.key"]
                )
            }
            #expect(!FileManager.default.fileExists(atPath: root + "/new.key"))
        }
    }
}
