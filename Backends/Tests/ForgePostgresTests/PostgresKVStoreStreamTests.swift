import ForgeKVStore
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresKVStoreStreamTests {
    @Test func aStreamSeesAnotherInstancesChangesInOrder() async throws {
        try await TestServer.withStores(2) { (stores) async throws in
            let (reader, writer) = (stores[0], stores[1])
            let key = KVKey<Int>("count")
            try await writer.set(key, value: 0)
            var values = reader.stream(key).makeAsyncIterator()
            #expect(try await nextValue(&values) == 0)

            try await writer.set(key, value: 1)
            #expect(try await nextValue(&values) == 1)
            try await writer.set(key, value: 1)  // the same value again: skipped
            try await writer.set(KVKey<Int>("other"), value: 9)  // another key: not seen
            try await writer.set(key, value: 2)
            #expect(try await nextValue(&values) == 2)
            try await writer.remove(key)
            #expect(try await nextValue(&values) == nil)
            try await writer.set(key, value: 3)
            #expect(try await nextValue(&values) == 3)
            try await writer.removeAll()
            #expect(try await nextValue(&values) == nil)
        }
    }

    @Test func aStreamOfAMigratingKeySeesItsOlderName() async throws {
        try await TestServer.withStores(2) { (stores) async throws in
            let key = KVKey<String>("appearance", migrations: .renamed(from: "theme"))
            var values = stores[0].stream(key).makeAsyncIterator()
            #expect(try await nextValue(&values) == nil)
            try await stores[1].set(KVKey<String>("theme"), value: "dark")
            #expect(try await nextValue(&values) == "dark")
            try await stores[1].set(key, value: "light")
            #expect(try await nextValue(&values) == "light")
        }
    }

    @Test func streamsOfTwoNamespacesDoNotSeeEachOther() async throws {
        try await TestServer.withStores { (stores) async throws in
            let key = KVKey<Int>("k")
            let other = PostgresKVStore(client: stores[0].client, namespace: "\(stores[0].namespace)-other")
            var values = stores[0].stream(key).makeAsyncIterator()
            #expect(try await nextValue(&values) == nil)
            try await other.set(key, value: 1)
            try await other.removeAll()
            try await stores[0].set(key, value: 2)
            #expect(try await nextValue(&values) == 2)
        }
    }

    @Test func aStreamCatchesUpAfterItsListeningConnectionDrops() async throws {
        // Its own table, so that ending its listening connection disturbs no other test's stream.
        let table = "forge_kv_drop_test"
        try await TestServer.withStores(2, tableName: table) { (stores) async throws in
            let key = KVKey<Int>("k")
            var values = stores[0].stream(key).makeAsyncIterator()
            #expect(try await nextValue(&values) == nil)
            try await stores[1].set(key, value: 1)
            #expect(try await nextValue(&values) == 1)

            // The server ends every connection listening on the table's channel.
            try await TestServer.withClient { admin in
                let ended = try await admin.query(
                    """
                    SELECT count(pg_terminate_backend(pid))::int FROM pg_stat_activity
                    WHERE query ILIKE \("LISTEN%" + table + "%")
                    """
                )
                for try await count in ended.decode(Int.self) { #expect(count >= 1) }
            }
            try await stores[1].set(key, value: 2)
            #expect(try await nextValue(&values) == 2)
            try await stores[1].set(key, value: 3)
            #expect(try await nextValue(&values) == 3)
        }
    }
}
