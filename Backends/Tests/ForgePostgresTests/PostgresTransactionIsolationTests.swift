import ForgeKVStore
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

/// Another connection (another client, as another process has) finds nothing of a transaction before it commits, and
/// all of it after.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresTransactionIsolationTests {
    @Test func anotherClientSeesNothingOfATransactionStoppedHalfwayAndAllOfItOnceItCommits() async throws {
        try await TestServer.withStores(2) { (stores) async throws in
            let (writer, reader) = (stores[0], stores[1])
            let keys = ["a", "b", "c"].map { KVKey<String>($0) }
            try await writer.set(keys[1], value: "old")

            let transaction = try await TestServer.withClient { admin in
                // Another transaction locks the row of "b", so the transaction stops there, "a" written, mid-way.
                let lock: PostgresQuery = """
                    SELECT key FROM forge_kv WHERE namespace = \(writer.namespace) AND key = 'b' FOR UPDATE
                    """
                return try await TestServer.whileLocked(by: lock, admin: admin) { holder in
                    let transaction = Task {
                        try await StorageTransaction.run { transaction in
                            for key in keys { try transaction.set(key, value: "new", in: writer) }
                        }
                    }
                    _ = try await TestServer.backendWaiting(on: holder, admin: admin)
                    #expect(try await reader.keys() == ["b"], "a write of an open transaction is not seen")
                    #expect(try await reader.get(keys[1]) == "old")
                    return transaction
                }
            }
            try await transaction.value
            for key in keys { #expect(try await reader.get(key) == "new") }
        }
    }
}
