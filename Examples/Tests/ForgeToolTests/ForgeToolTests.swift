import ArgumentParser
import ForgeStorage
import Foundation
import TaskFlow
import Testing

@testable import forge

/// The `forge` commands, run in-process on fresh temporary data folders.
struct ForgeToolTests {
    /// Runs `body` with the path of a fresh folder that does not exist yet, removed afterwards.
    private func withRoot(_ body: (String) async throws -> Void) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("forge-tool-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try await body(root.path)
    }

    private func demo(_ root: String, _ extra: [String] = []) async throws {
        try await DemoCommand.parse(["--root", root] + extra).run()
    }

    private func settings(_ root: String) -> DiskKVStore {
        DiskKVStore(directory: .custom(URL(fileURLWithPath: root)), namespace: DataRoot.settingsNamespace)
    }

    private func vault(_ root: String) throws -> EncryptedFileCrypt {
        let url = URL(fileURLWithPath: root)
        return try EncryptedFileCrypt(
            directory: .custom(url),
            namespace: DataRoot.secretsNamespace,
            masterKey: .keyFile(url.appendingPathComponent(DataRoot.keyFileName))
        )
    }

    @Test func demoRunTwiceKeepsItsState() async throws {
        try await withRoot { root in
            try await demo(root)
            let token = try vault(root).get(AuthKeys.accessToken)
            #expect(token?.hasPrefix("demo-") == true)

            try await demo(root)
            #expect(try vault(root).get(AuthKeys.accessToken) == token)
            #expect(settings(root).get(TaskKeys.launchCount) == 2)
            #expect(settings(root).get(TaskKeys.onboarding) == true)
            let files = DiskFileStore(
                directory: .custom(URL(fileURLWithPath: root)),
                namespace: DataRoot.filesNamespace
            )
            #expect(files.exists(TaskFlowService.avatarPath))
        }
    }

    @Test func demoLogoutClearsEveryStore() async throws {
        try await withRoot { root in
            try await demo(root)
            try await demo(root, ["--logout"])
            #expect(try vault(root).itemCount() == 0)
            #expect(try settings(root).keys().isEmpty)
        }
    }

    @Test func theDemoNamespacesAreRecognised() async throws {
        try await withRoot { root in
            try await demo(root)
            let dataRoot = DataRoot(url: URL(fileURLWithPath: root))
            #expect(try dataRoot.namespaces() == ["files", "secrets", "settings"])
            #expect(try dataRoot.kind(of: "settings") == .keyValue)
            #expect(try dataRoot.kind(of: "files") == .files)
            #expect(try dataRoot.kind(of: "secrets") == .vault)
            #expect(throws: ForgeError.unknownNamespace("nope", root: root, known: ["files", "secrets", "settings"])) {
                try dataRoot.kind(of: "nope")
            }
        }
    }

    @Test func aMissingRootIsReportedAndNotCreated() async throws {
        try await withRoot { root in
            await #expect(throws: ForgeError.missingRoot(root)) {
                try await InspectCommand.parse(["--root", root]).run()
            }
            await #expect(throws: ForgeError.missingRoot(root)) {
                try await KVCommand.SetValue.parse(["--root", root, "k", "1"]).run()
            }
            #expect(!FileManager.default.fileExists(atPath: root))
        }
    }

    @Test func inspectFailsOnACorruptValue() async throws {
        try await withRoot { root in
            try await demo(root)
            try await InspectCommand.parse(["--root", root, "--json"]).run()

            let url = try #require(settings(root).fileURL(for: TaskKeys.launchCount))
            try Data("{oops".utf8).write(to: url)
            await #expect(throws: ForgeError.problemsFound(1)) {
                try await InspectCommand.parse(["--root", root]).run()
            }
            await #expect(throws: ForgeError.corruptValue(key: TaskKeys.launchCount.key, namespace: "settings")) {
                try await KVCommand.Get.parse(["--root", root, TaskKeys.launchCount.key]).run()
            }
        }
    }

    @Test func aWrongMasterKeyIsRefusedAndNothingChanges() async throws {
        try await withRoot { root in
            try await demo(root)
            let keyFile = URL(fileURLWithPath: root).appendingPathComponent(DataRoot.keyFileName)
            let otherKey = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
            try otherKey.write(to: keyFile)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
            let vaultFolder = URL(fileURLWithPath: root).appendingPathComponent(DataRoot.secretsNamespace).path

            await #expect(throws: CryptStoreError.wrongMasterKey(path: vaultFolder, createdWith: .keyFile)) {
                try await InspectCommand.parse(["--root", root, "--reveal", AuthKeys.accessToken.key]).run()
            }
            await #expect(throws: CryptStoreError.self) {
                try await demo(root)
            }
            #expect(settings(root).get(TaskKeys.launchCount) == 1)
        }
    }

    @Test func revealNeedsAnExistingKeyFile() async throws {
        try await withRoot { root in
            try await demo(root)
            let missing = root + "/elsewhere.key"
            await #expect(throws: ForgeError.missingKeyFile(missing)) {
                try await InspectCommand.parse(["--root", root, "--reveal", "auth.access", "--key-file", missing]).run()
            }
            #expect(!FileManager.default.fileExists(atPath: missing))
        }
    }

    @Test func kvSetStoresJSONAndRefusesTextThatIsNot() async throws {
        try await withRoot { root in
            try await demo(root)
            try await KVCommand.SetValue.parse(["--root", root, "colors", #"{"b":[1,2.5,"x",true,null],"a":{}}"#]).run()
            let stored = settings(root).rawJSON(forKey: "colors").map { String(decoding: $0, as: UTF8.self) }
            #expect(stored == #"{"a":{},"b":[1,2.5,"x",true,null]}"#)

            await #expect(throws: ForgeError.notJSON("not json")) {
                try await KVCommand.SetValue.parse(["--root", root, "colors", "not json"]).run()
            }
            #expect(settings(root).rawJSON(forKey: "colors").map { String(decoding: $0, as: UTF8.self) } == stored)

            try await KVCommand.SetValue.parse(["--root", root, "name", "--string", "Task Flow"]).run()
            #expect(settings(root).get(KVKey<String>("name")) == "Task Flow")
        }
    }

    @Test func kvCommandsRefuseOtherKindsOfStoreAndMissingKeys() async throws {
        try await withRoot { root in
            try await demo(root)
            await #expect(throws: ForgeError.wrongKind(namespace: "files", kind: .files, expected: .keyValue)) {
                try await KVCommand.SetValue.parse(["--root", root, "--namespace", "files", "k", "1"]).run()
            }
            await #expect(throws: ForgeError.missingKey("absent", namespace: "settings")) {
                try await KVCommand.Remove.parse(["--root", root, "absent"]).run()
            }
            try await KVCommand.Remove.parse(["--root", root, TaskKeys.launchCount.key]).run()
            #expect(settings(root).get(TaskKeys.launchCount) == nil)
        }
    }

    @Test func filesCommandsDeleteAndReportMissingFiles() async throws {
        try await withRoot { root in
            try await demo(root)
            try await FilesCommand.Remove.parse(["--root", root, TaskFlowService.avatarPath]).run()
            await #expect(throws: FileStoreError.notFound(path: TaskFlowService.avatarPath)) {
                try await FilesCommand.Cat.parse(["--root", root, TaskFlowService.avatarPath]).run()
            }
        }
    }

    private func fileStore(_ root: String) -> DiskFileStore {
        DiskFileStore(directory: .custom(URL(fileURLWithPath: root)), namespace: DataRoot.filesNamespace)
    }

    /// The names in a namespace's folder, to show a refused command changed nothing.
    private func folderContents(_ root: String, _ namespace: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root + "/" + namespace).sorted()
    }

    @Test func kvCommandsRefuseAnEmptyKeyAndChangeNothing() async throws {
        try await withRoot { root in
            try await demo(root)
            let before = try folderContents(root, DataRoot.settingsNamespace)
            let commands: [any AsyncParsableCommand.Type] = [
                KVCommand.SetValue.self, KVCommand.SetValue.self, KVCommand.Get.self, KVCommand.Remove.self,
            ]
            let arguments = [["", "1"], ["", "--string", "text"], [""], [""]]
            for (command, arguments) in zip(commands, arguments) {
                await #expect(throws: ForgeError.emptyKey, "\(command) \(arguments)") {
                    var parsed = try command.parse(["--root", root] + arguments)
                    try await parsed.run()
                }
                #expect(try folderContents(root, DataRoot.settingsNamespace) == before, "\(command) \(arguments)")
            }
            #expect(settings(root).get(TaskKeys.launchCount) == 1)
        }
    }

    @Test func revealOfAKeyWithNoSecretFails() async throws {
        try await withRoot { root in
            try await demo(root)
            let access = AuthKeys.accessToken.key
            try await InspectCommand.parse(["--root", root, "--reveal", access]).run()

            await #expect(throws: ForgeError.missingSecrets(["auth.nope"], vaults: ["secrets"])) {
                try await InspectCommand.parse(["--root", root, "--reveal", "auth.nope"]).run()
            }
            await #expect(throws: ForgeError.missingSecrets(["auth.nope"], vaults: ["secrets"])) {
                try await InspectCommand.parse(["--root", root, "--json", "--reveal", access, "--reveal", "auth.nope"])
                    .run()
            }
            await #expect(throws: ForgeError.missingSecrets([access], vaults: [])) {
                try await InspectCommand.parse(["--root", root, "--namespace", "settings", "--reveal", access]).run()
            }
            await #expect(throws: ForgeError.emptyKey) {
                try await InspectCommand.parse(["--root", root, "--reveal", ""]).run()
            }
            #expect(try vault(root).itemCount() == 1)
        }
    }

    @Test func catRefusesToWriteBinaryToATerminal() async throws {
        try await withRoot { root in
            try await demo(root)
            let avatar = TaskFlowService.avatarPath

            var terminal = CapturedOutput(isTerminal: true)
            await #expect(throws: ForgeError.binaryToTerminal(path: avatar)) {
                try await FilesCommand.Cat.parse(["--root", root, avatar]).run(to: &terminal)
            }
            #expect(terminal.data.isEmpty)

            var pipe = CapturedOutput(isTerminal: false)
            try await FilesCommand.Cat.parse(["--root", root, avatar]).run(to: &pipe)
            #expect(pipe.data == DemoCommand.avatar)

            var raw = CapturedOutput(isTerminal: true)
            try await FilesCommand.Cat.parse(["--root", root, avatar, "--raw"]).run(to: &raw)
            #expect(raw.data == DemoCommand.avatar)

            var hex = CapturedOutput(isTerminal: true)
            try await FilesCommand.Cat.parse(["--root", root, avatar, "--hex"]).run(to: &hex)
            #expect(hex.text == HexDump.lines(of: DemoCommand.avatar).joined(separator: "\n") + "\n")

            #expect(throws: (any Error).self) {
                try FilesCommand.Cat.parse(["--root", root, avatar, "--raw", "--hex"])
            }
            #expect(try await fileStore(root).load(avatar) == DemoCommand.avatar)
        }
    }

    @Test func catWritesTextToATerminalButNotEscapeSequences() async throws {
        try await withRoot { root in
            try await demo(root)
            let text = Data("Notes\n\twith a tab, ünïcode\r\n".utf8)
            try await fileStore(root).save(text, to: "notes.txt")
            try await fileStore(root).save(Data("\u{1B}]0;owned\u{7}".utf8), to: "title.txt")

            var terminal = CapturedOutput(isTerminal: true)
            try await FilesCommand.Cat.parse(["--root", root, "notes.txt"]).run(to: &terminal)
            #expect(terminal.data == text)

            var escapes = CapturedOutput(isTerminal: true)
            await #expect(throws: ForgeError.binaryToTerminal(path: "title.txt")) {
                try await FilesCommand.Cat.parse(["--root", root, "title.txt"]).run(to: &escapes)
            }
            #expect(escapes.data.isEmpty)
        }
    }

    @Test func lsListsTheDirectEntriesAndRecursiveEveryFileBeneath() async throws {
        try await withRoot { root in
            try await demo(root)
            let files = fileStore(root)
            try await files.save(Data("a".utf8), to: "docs/a.txt")
            try await files.save(Data("d".utf8), to: "docs/drafts/d.txt")
            try await files.save(Data("o".utf8), to: "docs-old/o.txt")
            try await files.save(Data("readme".utf8), to: "readme.md")

            func listed(_ arguments: [String]) async throws -> [String] {
                var output = CapturedOutput(isTerminal: false)
                try await FilesCommand.List.parse(["--root", root] + arguments).run(to: &output)
                return output.listedPaths
            }
            #expect(try await listed([]) == ["avatars/", "docs-old/", "docs/", "readme.md"])
            #expect(try await listed(["docs"]) == ["docs/a.txt", "docs/drafts/"])
            #expect(try await listed(["docs/"]) == ["docs/a.txt", "docs/drafts/"])
            #expect(try await listed(["--recursive", "docs"]) == ["docs/a.txt", "docs/drafts/d.txt"])
            #expect(
                try await listed(["-r"]) == [
                    "avatars/current.jpg", "docs-old/o.txt", "docs/a.txt", "docs/drafts/d.txt", "readme.md",
                ]
            )

            var output = CapturedOutput(isTerminal: false)
            try await FilesCommand.List.parse(["--root", root]).run(to: &output)
            let readme = try #require(try files.fileInfo(at: "readme.md"))
            #expect(output.text.hasSuffix("6\t\(InspectCommand.dateText(readme.modificationDate))\treadme.md\n"))
            #expect(output.text.contains("-\t-\tdocs/\n"))
            #expect(FilesCommand.List.helpMessage().contains("--recursive"))
        }
    }

    @Test func lsRefusesAFolderThatIsNotThere() async throws {
        try await withRoot { root in
            try await demo(root)
            var output = CapturedOutput(isTerminal: false)
            await #expect(throws: ForgeError.missingFolder("nope", namespace: "files")) {
                try await FilesCommand.List.parse(["--root", root, "nope"]).run(to: &output)
            }
            await #expect(throws: ForgeError.missingFolder(TaskFlowService.avatarPath, namespace: "files")) {
                try await FilesCommand.List.parse(["--root", root, "-r", TaskFlowService.avatarPath]).run(to: &output)
            }
            await #expect(throws: FileStoreError.self) {
                try await FilesCommand.List.parse(["--root", root, "../settings"]).run(to: &output)
            }
            #expect(output.data.isEmpty)
        }
    }

    @Test func aPassphraseFromTheEnvironmentOpensAPassphraseVault() async throws {
        try await withRoot { root in
            let environment = [VaultKeyOptions.passphraseVariable: "correct horse battery staple"]
            try await DemoCommand.parse(["--root", root, "--passphrase"]).run(environment: environment)
            #expect(!FileManager.default.fileExists(atPath: root + "/" + DataRoot.keyFileName))
            let url = URL(fileURLWithPath: root)
            let secrets = try EncryptedFileCrypt(
                directory: .custom(url),
                namespace: DataRoot.secretsNamespace,
                masterKey: .passphrase("correct horse battery staple")
            )
            #expect(try secrets.get(AuthKeys.accessToken)?.hasPrefix("demo-") == true)

            let reveal = ["--root", root, "--reveal", AuthKeys.accessToken.key]
            try await InspectCommand.parse(reveal + ["--passphrase"]).run(environment: environment)
            // Running the demo again opens the same vault.
            try await DemoCommand.parse(["--root", root, "--passphrase"]).run(environment: environment)
            #expect(settings(root).get(TaskKeys.launchCount) == 2)

            let vaultFolder = url.appendingPathComponent(DataRoot.secretsNamespace).path
            await #expect(throws: CryptStoreError.wrongMasterKey(path: vaultFolder, createdWith: .passphrase)) {
                try await InspectCommand.parse(reveal + ["--passphrase"])
                    .run(environment: [VaultKeyOptions.passphraseVariable: "wrong"])
            }
            await #expect(throws: ForgeError.emptyPassphrase) {
                try await InspectCommand.parse(reveal + ["--passphrase"])
                    .run(environment: [VaultKeyOptions.passphraseVariable: ""])
            }
            await #expect(throws: ForgeError.conflictingMasterKeys) {
                try await InspectCommand.parse(reveal + ["--passphrase", "--key-file", root + "/master.key"])
                    .run(environment: environment)
            }
            await #expect(throws: ForgeError.missingKeyFile(root + "/" + DataRoot.keyFileName)) {
                try await InspectCommand.parse(reveal).run(environment: environment)
            }
            await #expect(throws: CryptStoreError.wrongMasterKey(path: vaultFolder, createdWith: .passphrase)) {
                try await DemoCommand.parse(["--root", root]).run(environment: environment)
            }
            #expect(!FileManager.default.fileExists(atPath: root + "/" + DataRoot.keyFileName))
            #expect(settings(root).get(TaskKeys.launchCount) == 2)
            #expect(try secrets.itemCount() == 1)
        }
    }
}
