import ForgeKVStore
import ForgePostgres
import Foundation
import Testing

/// The keys the transactions sample names, as an app declares them.
private enum TaskKeys {
    static let taskCount = KVKey<Int>("taskflow.taskCount")
    static let draft = KVKey<String>("taskflow.draft")
}

/// The key of the audit store the transactions sample names.
private enum AuditKeys {
    static let lastChange = KVKey<String>("audit.lastChange")
}

/// The transactions sample of the ForgePostgres catalog, quoted from here, run against the test server.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct TransactionsSampleTests {
    @Test func theSampleChangesTwoStoresOfOneClientAsOne() async throws {
        try await TestServer.withClient { client in
            let namespace = "sample-\(UUID().uuidString)"
            let settings = PostgresKVStore(client: client, namespace: namespace)
            let audit = PostgresKVStore(client: client, namespace: namespace, tableName: "forge_kv_audit_sample")
            try await settings.set(TaskKeys.draft, value: "half-written")

            // `settings` and `audit`: stores on one PostgresClient, in any tables and namespaces.
            try await StorageTransaction.run { transaction in
                try transaction.set(TaskKeys.taskCount, value: 43, in: settings)
                try transaction.set(AuditKeys.lastChange, value: "taskCount", in: audit)
                try transaction.remove(TaskKeys.draft, in: settings)
            }

            #expect(try await settings.get(TaskKeys.taskCount) == 43)
            #expect(try await settings.contains(TaskKeys.draft) == false)
            #expect(try await audit.get(AuditKeys.lastChange) == "taskCount")
            try await settings.removeAll()
            try await audit.removeAll()
        }
    }
}
