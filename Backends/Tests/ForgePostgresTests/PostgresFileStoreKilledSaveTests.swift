import ForgeFileStore
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

/// A save whose connection the server kills mid-write (`pg_terminate_backend`) fails with a typed error and leaves
/// the old content whole, with no chunk of the new one left behind.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresFileStoreKilledSaveTests {
    @Test func aSaveKilledMidWriteLeavesTheOldContentWhole() async throws {
        let table = "killed_files"
        try await TestServer.withFileStores(tableName: table) { store, reader in
            let old = patternedData(count: 1_500_000, seed: 3)
            try await store.save(old, to: "docs/report.bin")
            let new = patternedData(count: 3 * 1_048_576 + 77, seed: 4)

            try await TestServer.withClient { admin in
                // The save writes its chunks, then waits at its file row for this table lock, its transaction open:
                // killed there, it has written everything but the row.
                let lock = PostgresQuery(unsafeSQL: "LOCK TABLE \"\(table)\" IN EXCLUSIVE MODE")
                let killed = try await TestServer.whileLocked(by: lock, admin: admin) { holder in
                    let save = Task { try await store.save(new, to: "docs/report.bin") }
                    let pid = try await TestServer.backendWaiting(on: holder, admin: admin)
                    try await TestServer.terminateBackend(pid, admin: admin)
                    return save
                }
                let error = await #expect(throws: FileStoreError.self) { try await killed.value }
                #expect(error?.path == "docs/report.bin")
                guard case .writeFailed = error else {
                    Issue.record("expected writeFailed, got \(String(describing: error))")
                    return
                }
            }
            #expect(try await reader.load("docs/report.bin") == old)
            #expect(try await reader.totalSize() == old.count)
            #expect(try await TestServer.orphanedChunkCount(of: table, on: reader.client) == 0)
            // The store's client replaces the killed connection.
            try await store.save(new, to: "docs/report.bin")
            #expect(try await reader.load("docs/report.bin") == new)
        }
    }
}
