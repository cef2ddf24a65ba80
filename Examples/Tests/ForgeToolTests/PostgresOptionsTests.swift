import ArgumentParser
import ForgePostgres
import Testing

@testable import forge

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
