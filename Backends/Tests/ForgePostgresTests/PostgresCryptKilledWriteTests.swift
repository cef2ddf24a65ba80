import ForgeCrypt
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

/// A write whose connection the server kills (`pg_terminate_backend`) while its statement runs leaves the previous
/// secret, and the store goes on with new connections.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresCryptKilledWriteTests {
    /// A table of this test's own, so that its lock holds no other test up.
    static let tableName = "forge_secrets_killed"

    @Test func aWriteWhoseConnectionIsKilledLeavesTheOldSecret() async throws {
        let key = CryptKey<String>(key: "token")
        try await TestServer.withCrypts(tableName: Self.tableName) { stores in
            let store = stores[0]
            try await store.set("old", for: key)

            try await TestServer.withClient { admin in
                try await admin.withConnection { locking in
                    // The write waits on this lock: it is in flight, its statement sent, when its backend is killed.
                    try await locking.query("BEGIN", logger: locking.logger)
                    try await locking.query(
                        "LOCK TABLE \(unescaped: Self.tableName) IN EXCLUSIVE MODE",
                        logger: locking.logger
                    )
                    let write = Task { try await store.set("new", for: key) }
                    let writer = try await TestServer.backendWaitingOnLock(insertingInto: Self.tableName, admin: admin)
                    try await TestServer.terminateBackend(writer, admin: admin)

                    let error = await #expect(throws: CryptStoreError.self) { try await write.value }
                    #expect(error?.key == "token" && error?.reason != nil, "\(String(describing: error))")
                    try await locking.query("ROLLBACK", logger: locking.logger)
                }
            }

            #expect(try await store.get(key) == "old")
            try await store.set("newer", for: key)
            #expect(try await store.get(key) == "newer")
        }
    }
}
