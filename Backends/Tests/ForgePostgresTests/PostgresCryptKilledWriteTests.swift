import ForgeCrypt
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

/// A write whose connection the server kills (`pg_terminate_backend`) while its statement runs leaves the previous
/// secret, and the store goes on with new connections.
///
/// Serialized: both tests lock the same table, and each kills the backend it finds waiting on its lock, which must be
/// its own write and not the other test's `LOCK TABLE`.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)), .serialized)
struct PostgresCryptKilledWriteTests {
    /// A table of this test's own, so that its lock holds no other test up.
    static let tableName = "forge_secrets_killed"

    @Test func aWriteWhoseConnectionIsKilledLeavesTheOldSecret() async throws {
        let key = CryptKey<String>(key: "token")
        try await TestServer.withCrypts(tableName: Self.tableName) { stores in
            let store = stores[0]
            try await store.set("old", for: key)

            try await TestServer.withClient { admin in
                // The write waits on this lock: it is in flight, its statement sent, when its backend is killed.
                let lock = PostgresQuery(unsafeSQL: "LOCK TABLE \(Self.tableName) IN EXCLUSIVE MODE")
                let write = try await TestServer.whileLocked(by: lock, admin: admin) { holder in
                    let write = Task { try await store.set("new", for: key) }
                    let writer = try await TestServer.backendWaiting(on: holder, admin: admin)
                    try await TestServer.terminateBackend(writer, admin: admin)
                    return write
                }
                let error = await #expect(throws: CryptStoreError.self) { try await write.value }
                #expect(error?.key == "token" && error?.reason != nil, "\(String(describing: error))")
            }

            #expect(try await store.get(key) == "old")
            try await store.set("newer", for: key)
            #expect(try await store.get(key) == "newer")
        }
    }

    @Test func aWriteCancelledWhileItsStatementRunsIsReportedAsWritten() async throws {
        let key = CryptKey<String>(key: "token")
        try await TestServer.withCrypts(tableName: Self.tableName) { stores in
            let store = stores[0]
            try await store.set("old", for: key)

            let write = try await TestServer.withClient { admin in
                // The write reads the rows of its statement: a cancelled caller must still be told it was written.
                let lock = PostgresQuery(unsafeSQL: "LOCK TABLE \(Self.tableName) IN EXCLUSIVE MODE")
                return try await TestServer.whileLocked(by: lock, admin: admin) { holder in
                    let write = Task { try await store.set("new", for: key) }
                    _ = try await TestServer.backendWaiting(on: holder, admin: admin)
                    write.cancel()
                    return write
                }
            }
            let succeeded = await (try? write.value) != nil
            #expect(succeeded, "a statement that started is not stopped by the caller's cancellation")
            #expect(try await store.get(key) == (succeeded ? "new" : "old"))
        }
    }
}
