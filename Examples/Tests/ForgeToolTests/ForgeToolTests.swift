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
            #expect(settings(root).storedKeys().isEmpty)
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

            await #expect(throws: CryptStoreError.wrongMasterKey(path: vaultFolder)) {
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
}
