import ArgumentParser
import ForgeStorage
import Foundation
import TaskFlow
import Testing

@testable import forge

#if SQLite
import ForgeSQLite

/// `forge vault rotate --sqlite`, run in-process on a database file that `forge demo --sqlite` made in a fresh
/// temporary folder.
struct VaultRotateSQLiteToolTests {
    /// Runs `body` with the path of a database file in a fresh folder, removed afterwards.
    private func withDatabase(_ body: (_ file: String, _ folder: URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("forge-sqlite-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder.appendingPathComponent("taskflow.sqlite").path, folder)
    }

    /// Runs `vault rotate` with `arguments` and `environment`, and returns what it printed.
    private func rotate(_ arguments: [String], environment: [String: String] = [:]) async throws -> String {
        var output = CapturedOutput(isTerminal: false)
        try await VaultCommand.Rotate.parse(arguments).run(environment: environment, to: &output)
        return output.text
    }

    /// The demo's secrets in the database `file`, opened with `masterKey`.
    private func secrets(_ file: String, _ masterKey: MasterKey) -> SQLiteCrypt {
        SQLiteCrypt(fileURL: URL(fileURLWithPath: file), namespace: DataRoot.secretsNamespace, masterKey: masterKey)
    }

    @Test func theDemosSecretsMoveToANewKeyFileAndRunningItAgainFindsItDone() async throws {
        try await withDatabase { file, folder in
            var demo = CapturedOutput(isTerminal: false)
            try await DemoCommand.parse(["--sqlite", file]).run(environment: [:], to: &demo)
            let oldKey = MasterKey.keyFile(folder.appendingPathComponent(DataRoot.keyFileName))
            let token = try #require(try secrets(file, oldKey).get(AuthKeys.accessToken))
            let newKeyFile = folder.appendingPathComponent("keys/master-2.key").path

            let printed = try await rotate(["--sqlite", file, "--new-key-file", newKeyFile])

            #expect(printed.contains("Sealing 1 item of 'secrets' under the new key, in one transaction…"))
            #expect(printed.contains("Committed: the new key is the key of 'secrets'."))
            #expect(printed.contains("'secrets' opens with the new key only: 1 item."))
            let newKey = MasterKey.keyFile(URL(fileURLWithPath: newKeyFile))
            #expect(try secrets(file, newKey).get(AuthKeys.accessToken) == token)
            #expect(throws: CryptStoreError.self) { try secrets(file, oldKey).prepare() }

            let again = try await rotate(["--sqlite", file, "--new-key-file", newKeyFile])
            #expect(again.contains("'secrets' already has this key: nothing to do."))

            var report = CapturedOutput(isTerminal: false)
            try await InspectCommand.parse([
                "--sqlite", file, "--namespace", DataRoot.secretsNamespace, "--reveal", AuthKeys.accessToken.key,
                "--key-file", newKeyFile,
            ])
            .run(environment: [:], to: &report)
            #expect(report.text.contains("  \(AuthKeys.accessToken.key) = \(token)"))
        }
    }

    @Test func aPassphraseMovesToANewPassphrase() async throws {
        try await withDatabase { file, _ in
            let environment = [
                VaultKeyOptions.passphraseVariable: "old words here",
                NewVaultKeyOptions.passphraseVariable: "new words here",
            ]
            var demo = CapturedOutput(isTerminal: false)
            try await DemoCommand.parse(["--sqlite", file, "--passphrase"]).run(environment: environment, to: &demo)
            let token = try secrets(file, .passphrase("old words here")).get(AuthKeys.accessToken)

            _ = try await rotate(["--sqlite", file, "--passphrase", "--new-passphrase"], environment: environment)

            #expect(try secrets(file, .passphrase("new words here")).get(AuthKeys.accessToken) == token)
        }
    }

    @Test func aMissingDatabaseANamespaceWithoutSecretsAndAWrongKeyAreRefusedAndChangeNothing() async throws {
        try await withDatabase { file, folder in
            let newKeyFile = folder.appendingPathComponent("new.key").path
            await #expect(throws: ForgeError.missingDatabase(file)) {
                _ = try await rotate(["--sqlite", file, "--new-key-file", newKeyFile])
            }
            #expect(!FileManager.default.fileExists(atPath: file), "no database is created")

            var demo = CapturedOutput(isTerminal: false)
            try await DemoCommand.parse(["--sqlite", file]).run(environment: [:], to: &demo)
            await #expect(throws: ForgeError.self) {
                _ = try await rotate(
                    ["--sqlite", file, "--namespace", DataRoot.settingsNamespace, "--new-key-file", newKeyFile]
                )
            }
            let wrongKeyFile = folder.appendingPathComponent("wrong.key")
            try Data(repeating: 7, count: 32).write(to: wrongKeyFile)
            await #expect(throws: CryptStoreError.self) {
                _ = try await rotate(["--sqlite", file, "--key-file", wrongKeyFile.path, "--new-key-file", newKeyFile])
            }
            #expect(!FileManager.default.fileExists(atPath: newKeyFile), "no new key file for a refused rotation")
            let oldKey = MasterKey.keyFile(folder.appendingPathComponent(DataRoot.keyFileName))
            #expect(try secrets(file, oldKey).get(AuthKeys.accessToken) != nil)
            #expect(throws: (any Error).self) {
                try VaultCommand.Rotate.parse(["--sqlite", file, "--root", folder.path, "--new-key-file", newKeyFile])
            }
        }
    }
}
#endif
