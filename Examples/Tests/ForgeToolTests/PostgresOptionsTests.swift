import ArgumentParser
import Foundation
import Testing

@testable import forge

#if Postgres
import ForgePostgres

/// The `--postgres` and `--namespace` options, checked before any server is reached.
struct PostgresOptionsTests {
    @Test func aURLThatCannotBeUsedIsATypedErrorThatDoesNotQuoteIt() async throws {
        await #expect {
            try await DemoCommand.parse(["--postgres", "mysql://root:hunter2@db/app"]).run(environment: [:])
        } throws: { error in
            (error as? PostgresStoreError) != nil && !String(describing: error).contains("hunter2")
        }
    }

    @Test func aNamespaceWithoutPostgresIsRefused() {
        #expect(throws: (any Error).self) { try DemoCommand.parse(["--namespace", "x"]) }
    }
}
#else
/// The `--postgres` option of a `forge` built without the `Postgres` trait: refused with a typed error that says how
/// to build it, before anything is written.
struct PostgresOptionsTests {
    @Test func demoWithPostgresSaysHowToBuildIt() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("forge-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        await #expect(throws: ForgeError.builtWithoutPostgres) {
            try await DemoCommand.parse(["--postgres", "postgres://u@localhost/db", "--root", root.path])
                .run(environment: [:])
        }
        #expect(!FileManager.default.fileExists(atPath: root.path))
        #expect(ForgeError.builtWithoutPostgres.description.contains("--traits Postgres"))
    }

    @Test func inspectWithPostgresSaysHowToBuildIt() async throws {
        await #expect(throws: ForgeError.builtWithoutPostgres) {
            try await InspectCommand.parse(["--postgres", "postgres://u@localhost/db"]).run(environment: [:])
        }
    }
}
#endif
