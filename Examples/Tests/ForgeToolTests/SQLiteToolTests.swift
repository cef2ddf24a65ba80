import ArgumentParser
import ForgeStorage
import Foundation
import TaskFlow
import Testing

@testable import forge

#if SQLite
import ForgeSQLite
import GRDB

/// `forge demo --sqlite` and `forge inspect --sqlite`, run in-process on a database file in a fresh temporary folder.
struct SQLiteToolTests {
    /// Runs `body` with the path of a database file in a fresh folder, removed afterwards.
    private func withDatabase(_ body: (_ file: String, _ folder: URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("forge-sqlite-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder.appendingPathComponent("taskflow.sqlite").path, folder)
    }

    /// The lines `forge demo` writes with `arguments`.
    private func demo(_ arguments: [String]) async throws -> [String] {
        var output = CapturedOutput(isTerminal: false)
        try await DemoCommand.parse(arguments).run(environment: [:], to: &output)
        return output.text.components(separatedBy: "\n")
    }

    /// The report `forge inspect` writes with `arguments`.
    private func inspect(_ arguments: [String]) async throws -> String {
        var output = CapturedOutput(isTerminal: false)
        try await InspectCommand.parse(arguments).run(environment: [:], to: &output)
        return output.text
    }

    /// The bytes of the database file `file` and of its log, nil for one that is not there.
    private func contents(of file: String) -> [Data?] {
        [file, file + "-wal"].map { FileManager.default.contents(atPath: $0) }
    }

    @Test func theDemoRunTwiceKeepsItsStateAndInspectShowsIt() async throws {
        try await withDatabase { file, folder in
            let first = try await demo(["--sqlite", file])
            #expect(first.first == "TaskFlow demo in \(file)")
            #expect(first.contains("Nothing stored yet: signing the demo user in."))
            #expect(first.contains("Launch 1 recorded."))
            #expect(first.contains("  file     \(TaskFlowService.avatarPath) (\(DemoCommand.avatar.count) bytes)"))
            #expect(first.contains("           vault key in \(folder.appendingPathComponent("master.key").path)"))

            let second = try await demo(["--sqlite", file])
            #expect(second.contains("Found the state an earlier run kept:"))
            #expect(second.contains("  onboarding completed: true"))
            #expect(second.contains("  avatar: \(DemoCommand.avatar.count) bytes"))
            #expect(second.contains("Launch 2 recorded."))
            #expect(second.contains("  setting  \(TaskKeys.launchCount.key) = 2"))

            let report = try await inspect(["--sqlite", file]).components(separatedBy: "\n")
            #expect(report.first == file)
            #expect(
                report.contains("files  [file store, 1 file, \(DemoCommand.avatar.count) bytes]  table forge_files")
            )
            #expect(report.contains("secrets  [vault, 1 item]  table forge_secrets"))
            #expect(report.contains("settings  [key-value store, 2 keys]  table forge_kv"))
            #expect(report.contains("  \(TaskKeys.launchCount.key) = 2"))
            #expect(report.contains("  \(TaskKeys.onboarding.key) = true"))
            #expect(report.contains { $0.hasSuffix("  \(TaskFlowService.avatarPath)") && $0.contains(" B  ") })
        }
    }

    @Test func inspectRevealsTheTokenWithTheKeyFileBesideTheDatabase() async throws {
        try await withDatabase { file, _ in
            _ = try await demo(["--sqlite", file])
            let report = try await inspect([
                "--sqlite", file, "--namespace", DataRoot.secretsNamespace, "--reveal", AuthKeys.accessToken.key,
            ])
            #expect(report.contains("  \(AuthKeys.accessToken.key) = demo-"))
        }
    }

    @Test func logoutLeavesTheSecretsEmpty() async throws {
        try await withDatabase { file, _ in
            _ = try await demo(["--sqlite", file])
            let lines = try await demo(["--sqlite", file, "--logout"])
            #expect(lines.contains("Signed out: the settings, the files and the secrets are cleared."))
            let report = try await inspect(["--sqlite", file])
            #expect(report.contains("secrets  [vault, 0 items]  table forge_secrets"))
            #expect(!report.contains("table forge_kv"))
        }
    }

    @Test func inspectChangesNoByteOfTheDatabaseOrItsLog() async throws {
        try await withDatabase { file, _ in
            _ = try await demo(["--sqlite", file])
            let before = contents(of: file)
            #expect(before[1] != nil, "the demo's database keeps its log")

            let report = try await inspect(["--sqlite", file])
            let json = try await inspect(["--sqlite", file, "--json"])
            let revealed = try await inspect([
                "--sqlite", file, "--namespace", DataRoot.secretsNamespace, "--reveal", AuthKeys.accessToken.key,
            ])

            #expect(contents(of: file) == before)
            #expect(report.contains("secrets  [vault, 1 item]  table forge_secrets"))
            #expect(json.contains("\"folder\" : \"table forge_kv\""))
            #expect(revealed.contains("  \(AuthKeys.accessToken.key) = demo-"))
            #expect(try await inspect(["--sqlite", file]) == report)
        }
    }

    /// A database that holds only key-value stores' rows, without the files and secrets tables (as a ForgeSQLite that
    /// made them on first use left it), and with its log moved into it: inspecting it makes no table and writes no
    /// byte of it.
    @Test func inspectMakesNoTableInADatabaseOfKeyValueStoresOnly() async throws {
        try await withDatabase { file, _ in
            _ = try await demo(["--sqlite", file])
            // The last connection to close, a writing one, moves the log into the file and removes it.
            try await DatabaseQueue(path: file)
                .writeWithoutTransaction { db in
                    try db.execute(sql: "DROP TABLE forge_files")
                    try db.execute(sql: "DROP TABLE forge_file_chunks")
                    try db.execute(sql: "DROP TABLE forge_secrets")
                    try db.execute(sql: "DELETE FROM forge_schema WHERE component IN ('files', 'crypt')")
                }
            let before = contents(of: file)
            #expect(before[1] == nil)

            let report = try await inspect(["--sqlite", file])

            #expect(
                report == """
                    \(file)

                    settings  [key-value store, 2 keys]  table forge_kv
                      \(TaskKeys.launchCount.key) = 1
                      \(TaskKeys.onboarding.key) = true

                    """
            )
            let after = contents(of: file)
            #expect(after[0] == before[0])
            // A reader of a database in WAL mode makes an empty log when there is none, as SQLite does.
            #expect(after[1] == nil || after[1] == Data())
            let tables = try await DatabaseQueue(path: file)
                .read { db in
                    try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
                }
            #expect(tables == ["forge_kv", "forge_schema"])
        }
    }

    @Test func aMissingDatabaseIsReportedAndNotCreated() async throws {
        try await withDatabase { file, folder in
            await #expect(throws: ForgeError.missingDatabase(file)) {
                try await InspectCommand.parse(["--sqlite", file]).run(environment: [:])
            }
            #expect(!FileManager.default.fileExists(atPath: folder.path))
        }
    }

    @Test func anUnknownNamespaceIsReported() async throws {
        try await withDatabase { file, _ in
            _ = try await demo(["--sqlite", file])
            await #expect(
                throws: ForgeError.unknownNamespace("nope", root: file, known: ["files", "secrets", "settings"])
            ) {
                try await InspectCommand.parse(["--sqlite", file, "--namespace", "nope"]).run(environment: [:])
            }
        }
    }

    @Test func sqliteWithRootOrPostgresIsRefused() {
        #expect(throws: (any Error).self) { try DemoCommand.parse(["--sqlite", "a.sqlite", "--root", "b"]) }
        #expect(throws: (any Error).self) {
            try InspectCommand.parse(["--sqlite", "a.sqlite", "--postgres", "postgres://u@h/d"])
        }
    }
}
#else
/// The `--sqlite` option of a `forge` built without the `SQLite` trait: refused with a typed error that says how to
/// build it, before anything is written.
struct SQLiteToolTests {
    @Test func demoWithSQLiteSaysHowToBuildIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("forge-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        await #expect(throws: ForgeError.builtWithoutSQLite) {
            try await DemoCommand.parse(["--sqlite", folder.appendingPathComponent("taskflow.sqlite").path])
                .run(environment: [:])
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path))
        #expect(ForgeError.builtWithoutSQLite.description.contains("--traits SQLite"))
    }

    @Test func inspectWithSQLiteSaysHowToBuildIt() async throws {
        await #expect(throws: ForgeError.builtWithoutSQLite) {
            try await InspectCommand.parse(["--sqlite", "taskflow.sqlite"]).run(environment: [:])
        }
    }
}
#endif
