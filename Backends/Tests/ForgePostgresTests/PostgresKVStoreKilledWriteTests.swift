import ForgeKVStore
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

/// A write whose connection the server ends mid-way, or whose caller is cancelled mid-way: what the call reports is
/// what happened, the value before it is kept whole when it failed, and the store works again after.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresKVStoreKilledWriteTests {
    @Test func aWriteWhoseConnectionIsKilledFailsAndKeepsTheValueBefore() async throws {
        try await TestServer.withStores { (stores) async throws in
            let store = stores[0]
            let key = KVKey<String>("token")
            try await store.set(key, value: "old")

            try await TestServer.withClient { admin in
                // Another transaction locks the key's row, so the store's write waits on it, mid-statement.
                let lock: PostgresQuery = "SELECT key FROM forge_kv WHERE namespace = \(store.namespace) FOR UPDATE"
                let write = try await TestServer.whileLocked(by: lock, admin: admin) { holder in
                    let write = Task { try await store.set(key, value: "new") }
                    // The server ends the waiting write's connection.
                    let writer = try await TestServer.backendWaiting(on: holder, admin: admin)
                    try await TestServer.terminateBackend(writer, admin: admin)
                    return write
                }
                await #expect(throws: KVStoreError.self) { try await write.value }
            }

            #expect(try await store.value(for: key) == "old")
            try await store.set(key, value: "newer")
            #expect(try await store.value(for: key) == "newer")
        }
    }

    @Test func aWriteCancelledWhileItsStatementRunsReportsWhatHappened() async throws {
        try await TestServer.withStores { (stores) async throws in
            let store = stores[0]
            let key = KVKey<String>("token")
            try await store.set(key, value: "old")

            let write = try await TestServer.withClient { admin in
                // The write waits on this row lock, its statement sent, when its caller is cancelled.
                let lock: PostgresQuery = "SELECT key FROM forge_kv WHERE namespace = \(store.namespace) FOR UPDATE"
                return try await TestServer.whileLocked(by: lock, admin: admin) { holder in
                    let write = Task { try await store.set(key, value: "new") }
                    _ = try await TestServer.backendWaiting(on: holder, admin: admin)
                    write.cancel()
                    return write
                }
            }
            // The lock is released: the statement ran to its end, and the call says so.
            let succeeded = await (try? write.value) != nil
            #expect(succeeded, "a statement that started is not stopped by the caller's cancellation")
            #expect(try await store.value(for: key) == (succeeded ? "new" : "old"))
        }
    }
}
