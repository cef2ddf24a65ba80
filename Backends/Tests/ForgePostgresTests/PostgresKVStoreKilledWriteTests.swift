import ForgeKVStore
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

/// A write whose connection the server ends mid-way: a typed error, the value before it kept whole, and the store
/// working again after.
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
                        _ = try await connection.query("BEGIN", logger: Self.logger)
                        _ = try await connection.query(
                            "SELECT key FROM forge_kv WHERE namespace = \(store.namespace) FOR UPDATE",
                            logger: Self.logger
                        )
                        lockTaken.yield()
                        for await _ in release { break }
                        _ = try await connection.query("ROLLBACK", logger: Self.logger)
                    }
                }
                for await _ in locked { break }
                let write = Task { try await store.set(key, value: "new") }

                // The server ends the waiting write's connection.
                let killed = try await Self.terminateBackend(waitingOn: store.namespace, admin: admin)
                #expect(killed, "the store's write was never seen waiting on the lock")
                await #expect(throws: KVStoreError.self) { try await write.value }
                releaseLock.yield()
                try await lockHolder.value
            }

            #expect(try await store.value(for: key) == "old")
            try await store.set(key, value: "newer")
            #expect(try await store.value(for: key) == "newer")
        }
    }

    static let logger = Logger(label: "PostgresKVStoreKilledWriteTests")

    /// Ends the connection of the statement that waits on a lock held for `namespace`'s rows; false when no such
    /// statement showed up within 10 seconds.
    private static func terminateBackend(waitingOn namespace: String, admin: PostgresClient) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let rows = try await admin.query(
                """
                SELECT count(pg_terminate_backend(pid))::int FROM pg_stat_activity
                WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO%' AND pid <> pg_backend_pid()
                  AND query LIKE \("%" + "forge_kv" + "%")
                """
            )
            for try await count in rows.decode(Int.self) where count > 0 { return true }
            // The write has not reached the server yet: look again shortly.
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}
