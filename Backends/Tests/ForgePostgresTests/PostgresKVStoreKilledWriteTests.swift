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
                let (locked, lockTaken) = AsyncStream<Void>.makeStream()
                let (release, releaseLock) = AsyncStream<Void>.makeStream()
                let lockHolder = Task {
                    try await admin.withConnection { connection in
                        _ = try await connection.query("BEGIN", logger: testLogger)
                        _ = try await connection.query(
                            "SELECT key FROM forge_kv WHERE namespace = \(store.namespace) FOR UPDATE",
                            logger: testLogger
                        )
                        lockTaken.yield()
                        for await _ in release { break }
                        _ = try await connection.query("ROLLBACK", logger: testLogger)
                    }
                }
                for await _ in locked { break }
                let write = Task { try await store.set(key, value: "new") }

                // The server ends the waiting write's connection.
                let writer = try await TestServer.backendWaitingOnLock(insertingInto: "forge_kv", admin: admin)
                try await TestServer.terminateBackend(writer, admin: admin)
                await #expect(throws: KVStoreError.self) { try await write.value }
                releaseLock.yield()
                try await lockHolder.value
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

            let outcome = try await TestServer.withClient { admin in
                try await admin.withTransaction(logger: testLogger) { connection in
                    // The write waits on this row lock, its statement sent, when its caller is cancelled.
                    _ = try await connection.query(
                        "SELECT key FROM forge_kv WHERE namespace = \(store.namespace) FOR UPDATE",
                        logger: testLogger
                    )
                    let write = Task { try await store.set(key, value: "new") }
                    _ = try await TestServer.backendWaitingOnLock(insertingInto: "forge_kv", admin: admin)
                    write.cancel()
                    return write
                }
            }
            // The lock is released: the statement either ran to its end or was stopped.
            let succeeded = await (try? outcome.value) != nil
            #expect(try await store.value(for: key) == (succeeded ? "new" : "old"))
        }
    }
}
