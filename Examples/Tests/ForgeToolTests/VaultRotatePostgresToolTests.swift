#if Postgres
import ArgumentParser
import ForgePostgres
import PostgresNIO
import ForgeStorage
import Foundation
import TaskFlow
import Testing

@testable import forge

/// The server the tests run against, as `scripts/postgres-for-tests` names it; they are skipped without one.
private let postgresURL = ProcessInfo.processInfo.environment["FORGE_POSTGRES_URL"]

/// `forge vault rotate --postgres`, run in-process against the server `FORGE_POSTGRES_URL` names, on the secrets
/// `forge demo --postgres` keeps, each test in a namespace of its own.
@Suite(.enabled(if: postgresURL != nil, "FORGE_POSTGRES_URL is not set"), .timeLimit(.minutes(1)))
struct VaultRotatePostgresToolTests {
    /// Runs `body` with a fresh data folder (for the master key file), a new namespace in which the demo ran, and the
    /// server's URL, then removes the folder and every row of the namespace.
    private func withDemo(_ body: (_ root: String, _ namespace: String, _ url: String) async throws -> Void)
        async throws
    {
        let url = try #require(postgresURL)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("forge-tool-\(UUID().uuidString)")
        let namespace = "forge-tool-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(at: root) }
        var failure: (any Error)?
        do {
            try await DemoCommand.parse(["--postgres", url, "--namespace", namespace, "--root", root.path])
                .run(environment: [:])
            try await body(root.path, namespace, url)
        } catch {
            failure = error
        }
        try await PostgresOptions.withClient(try PostgresClient.Configuration(url: url)) { client in
            try await PostgresKVStore(client: client, namespace: namespace).removeAll()
            try await PostgresFileStore(client: client, namespace: namespace).deleteAll()
            // Every row of the secrets, the header too.
            let namespaceBytes = Data(namespace.utf8)
            _ = try await client.query("DELETE FROM forge_secrets WHERE namespace = sha256(\(namespaceBytes))")
        }
        if let failure { throw failure }
    }

    /// Runs `vault rotate` with `arguments`, and returns what it printed.
    private func rotate(_ arguments: [String]) async throws -> String {
        var output = CapturedOutput(isTerminal: false)
        try await VaultCommand.Rotate.parse(arguments).run(environment: [:], to: &output)
        return output.text
    }

    /// Every secret of `namespace`, by key, read with `masterKey`.
    private func secrets(_ url: String, _ namespace: String, _ masterKey: MasterKey) async throws -> [String: Data] {
        try await PostgresOptions.withClient(try PostgresClient.Configuration(url: url)) { client in
            let store = PostgresCrypt(client: client, namespace: namespace, masterKey: masterKey)
            var secrets: [String: Data] = [:]
            for key in try await store.keys() { secrets[key] = try await store.get(CryptKey<Data>(key: key)) }
            return secrets
        }
    }

    @Test func theDemosSecretsMoveToANewKeyFileAndRunningItAgainFindsItDone() async throws {
        try await withDemo { root, namespace, url in
            let oldKey = MasterKey.keyFile(URL(fileURLWithPath: root + "/" + DataRoot.keyFileName))
            let before = try await secrets(url, namespace, oldKey)
            #expect(before.count == 1, "the demo keeps one secret")
            let newKeyFile = root + "/keys/master-2.key"
            let arguments = ["--postgres", url, "--namespace", namespace, "--root", root, "--new-key-file", newKeyFile]

            let printed = try await rotate(arguments)

            #expect(printed.contains("Sealing 1 item of '\(namespace)' under the new key, in one transaction…"))
            #expect(printed.contains("Committed: the new key is the key of '\(namespace)'."))
            #expect(printed.contains("'\(namespace)' opens with the new key only: 1 item."))
            #expect(try await secrets(url, namespace, .keyFile(URL(fileURLWithPath: newKeyFile))) == before)
            await #expect(throws: CryptStoreError.self) { _ = try await secrets(url, namespace, oldKey) }

            let again = try await rotate(arguments)
            #expect(again.contains("'\(namespace)' already has this key: nothing to do."))
        }
    }

    @Test func aNamespaceWithoutSecretsIsRefused() async throws {
        try await withDemo { root, namespace, url in
            await #expect(throws: ForgeError.self) {
                _ = try await rotate([
                    "--postgres", url, "--namespace", namespace + "-none", "--root", root, "--new-key-file",
                    root + "/new.key",
                ])
            }
            #expect(!FileManager.default.fileExists(atPath: root + "/new.key"))
        }
    }
}
#endif
