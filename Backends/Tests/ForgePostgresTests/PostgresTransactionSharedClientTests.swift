import ForgeKVStore
import ForgePostgres
import Foundation
import Testing

/// Stores on one client share a transaction whatever their namespaces and tables; a store on another client cannot
/// join it.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresTransactionSharedClientTests {
    @Test func storesOfOneClientInOtherNamespacesAndTablesShareATransaction() async throws {
        try await TestServer.withStores { (stores) async throws in
            let settings = stores[0]
            let other = PostgresKVStore(client: settings.client, namespace: "\(settings.namespace)-other")
            let elsewhere = PostgresKVStore(
                client: settings.client,
                namespace: settings.namespace,
                tableName: "forge_kv_shared_client_test"
            )
            #expect(settings.transactionRunner === other.transactionRunner)
            #expect(settings.transactionRunner === elsewhere.transactionRunner)

            let count = KVKey<Int>("count")
            try await other.set(count, value: 1)
            try await StorageTransaction.run { transaction in
                try transaction.set(count, value: 2, in: settings)
                try transaction.remove(count, in: other)
                try transaction.set(count, value: 3, in: elsewhere)
            }
            #expect(try await settings.get(count) == 2)
            #expect(try await other.contains(count) == false)
            #expect(try await elsewhere.get(count) == 3)

            // A failure after writes to every store undoes them all.
            struct Refused: Error, Equatable {}
            await #expect(throws: Refused()) {
                try await StorageTransaction.run { transaction in
                    try transaction.set(count, value: 20, in: settings)
                    try transaction.set(count, value: 10, in: other)
                    try transaction.remove(count, in: elsewhere)
                    try transaction.stageFailure(Refused(), in: settings)
                }
            }
            #expect(try await settings.get(count) == 2)
            #expect(try await other.contains(count) == false)
            #expect(try await elsewhere.get(count) == 3)
            try await other.removeAll()
            try await elsewhere.removeAll()
        }
    }

    @Test func aStoreOfAnotherClientCannotJoinAndNothingIsApplied() async throws {
        try await TestServer.withStores(2) { (stores) async throws in
            let (settings, elsewhere) = (stores[0], stores[1])
            #expect(settings.transactionRunner !== elsewhere.transactionRunner, "two clients never share a runner")
            let refusal = StorageTransactionError.storesOfDifferentDatabases(
                "PostgresTransactionRunner",
                "PostgresTransactionRunner"
            )
            await #expect(throws: refusal) {
                try await StorageTransaction.run { transaction in
                    try transaction.set(KVKey<Int>("a"), value: 1, in: settings)
                    try transaction.set(KVKey<Int>("b"), value: 1, in: elsewhere)
                }
            }
            #expect(try await settings.keys() == [])
        }
    }
}
