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

/// `forge demo --postgres` and `forge inspect --postgres`, run in-process against the server `FORGE_POSTGRES_URL`
/// names, each test in a namespace of its own.
@Suite(.enabled(if: postgresURL != nil, "FORGE_POSTGRES_URL is not set"), .timeLimit(.minutes(1)))
struct PostgresToolTests {

    /// Runs `body` with a fresh data folder (for the master key file), a new namespace and the server's URL, then
    /// removes the folder and every row of the namespace.
    private func withDemo(_ body: (_ root: String, _ namespace: String, _ url: String) async throws -> Void)
        async throws
    {
        let url = try #require(postgresURL)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("forge-tool-\(UUID().uuidString)")
        let namespace = "forge-tool-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(at: root) }
        var failure: (any Error)?
        do {
            try await body(root.path, namespace, url)
        } catch {
            failure = error
        }
        try await PostgresOptions.withClient(try PostgresClient.Configuration(url: url)) { client in
            try await PostgresKVStore(client: client, namespace: namespace).removeAll()
            try await PostgresFileStore(client: client, namespace: namespace).deleteAll()
            // The secrets' header too, which deleteAll keeps.
            let namespaceBytes = Data(namespace.utf8)
            _ = try await client.query("DELETE FROM forge_secrets WHERE namespace = sha256(\(namespaceBytes))")
        }
        if let failure { throw failure }
    }

    /// The report `forge inspect --json` prints with `arguments`.
    private func inspect(_ arguments: [String]) async throws -> [String: Any] {
        var output = CapturedOutput(isTerminal: false)
        try await InspectCommand.parse(arguments + ["--json"]).run(environment: [:], to: &output)
        return try #require(try JSONSerialization.jsonObject(with: output.data) as? [String: Any])
    }

    @Test func theDemoRunsTaskFlowOnTheThreeStoresAndInspectShowsWhatItKept() async throws {
        try await withDemo { root, namespace, url in
            let demo = ["--postgres", url, "--namespace", namespace, "--root", root]
            try await DemoCommand.parse(demo).run(environment: [:])
            try await DemoCommand.parse(demo).run(environment: [:])  // finds the session the first run kept

            let report = try await inspect(["--postgres", url, "--namespace", namespace])
            let namespaces = try #require(report["namespaces"] as? [[String: Any]])
            #expect(namespaces.compactMap { $0["kind"] as? String } == ["key-value", "files", "vault"])
            let values = try #require(namespaces.first?["values"] as? [[String: Any]])
            #expect(values.compactMap { $0["key"] as? String } == ["sessions.demo.signedInAt"])
            let files = try #require(namespaces.dropFirst().first?["files"] as? [[String: Any]])
            #expect(files.compactMap { $0["path"] as? String } == [TaskFlowSessions.avatarPath(of: "demo")])
            #expect(namespaces.last?["itemCount"] as? Int == 1)

            // The token, opened with the key file the demo made.
            let token = TaskFlowSessions.tokenKey(of: "demo").key
            let revealed = try await inspect([
                "--postgres", url, "--namespace", namespace, "--root", root, "--reveal", token,
            ])
            let secrets = try #require(
                (revealed["namespaces"] as? [[String: Any]])?.last?["revealed"] as? [[String: Any]]
            )
            #expect((secrets.first?["secret"] as? String)?.hasPrefix("demo-") == true)

            try await DemoCommand.parse(demo + ["--logout"]).run(environment: [:])
            let afterLogout = try await inspect(["--postgres", url, "--namespace", namespace])
            #expect((afterLogout["namespaces"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["vault"])
            #expect((afterLogout["namespaces"] as? [[String: Any]])?.last?["itemCount"] as? Int == 0)
        }
    }

    @Test func anotherMasterKeyStopsTheDemoBeforeAnythingIsWritten() async throws {
        try await withDemo { root, namespace, url in
            try await DemoCommand.parse(["--postgres", url, "--namespace", namespace, "--root", root])
                .run(environment: [:])
            let otherRoot = root + "-other"
            defer { try? FileManager.default.removeItem(atPath: otherRoot) }
            await #expect(throws: CryptStoreError.self) {
                try await DemoCommand.parse([
                    "--postgres", url, "--namespace", namespace, "--root", otherRoot, "--logout",
                ])
                .run(environment: [:])
            }
            let report = try await inspect(["--postgres", url, "--namespace", namespace])
            #expect((report["namespaces"] as? [[String: Any]])?.count == 3, "the signed-in session is still there")
        }
    }
}
#endif
