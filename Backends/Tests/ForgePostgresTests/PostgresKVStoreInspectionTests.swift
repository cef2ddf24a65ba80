import ForgeKVStore
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

/// Reading a table without knowing its keys: the raw JSON of a row, and the namespaces a table holds.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresKVStoreInspectionTests {
    @Test func rawJSONIsWhatTheRowHoldsWithoutMigrations() async throws {
        try await TestServer.withStores { (stores) async throws in
            let store = stores[0]
            try await store.set(KVKey<[String: Int]>("limits"), value: ["tasks": 3])
            try await store.set(KVKey<String>("theme"), value: "dark")
            #expect(try await store.rawJSON(forKey: "limits") == Data(#"{"tasks":3}"#.utf8))
            // A key that migrates from "theme" holds nothing under its own name.
            #expect(try await store.rawJSON(forKey: "appearance") == nil)
            #expect(try await store.rawJSON(forKey: "theme") == Data(#""dark""#.utf8))
        }
    }

    @Test func namespacesAreListedAsStoresNameThem() async throws {
        let table = "forge_kv_namespaces_test"
        try await TestServer.withClient { client in
            let names = ["a\\b", "café", "x\0y"]
            let stores = names.map { PostgresKVStore(client: client, namespace: $0, tableName: table) }
            for store in stores { try await store.set(KVKey<Int>("k"), value: 1) }
            let listed = try await PostgresKVStore.namespaces(client: client, tableName: table)
            for store in stores { try await store.removeAll() }
            #expect(listed == names.sorted())
        }
    }

    @Test func aTableThatDoesNotExistHoldsNoNamespaceAndIsNotCreated() async throws {
        try await TestServer.withClient { (client) async throws in
            let table = "forge_kv_never_made_\(UInt32.random(in: 0...UInt32.max))"
            #expect(try await PostgresKVStore.namespaces(client: client, tableName: table).isEmpty)
            #expect(try await TestServer.tableExists(table, client: client) == false)
        }
    }
}
