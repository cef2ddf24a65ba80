import ForgeKVStore
import ForgePostgres
import Testing

/// The stream of a key with a default on a `PostgresKVStore`: the library's one stream of a key with a default, over
/// the store's own stream, emits the default in place of nil, and each value read once.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresKVStoreDefaultStreamTests {
    @Test func aStreamOfAKeyWithADefaultSeesAnotherInstancesChangesWithTheDefaultForNothing() async throws {
        try await TestServer.withStores(2) { (stores) async throws in
            let (reader, writer) = (stores[0], stores[1])
            let count = KVKey<Int>("count").withDefault(0)
            var values = reader.stream(count).makeAsyncIterator()
            #expect(await values.next() == 0)

            try await writer.set(count, value: 0)  // the default stored: read alike, so skipped
            #expect(try await reader.contains(count))
            try await writer.set(count, value: 2)
            #expect(await values.next() == 2)
            try await writer.set(KVKey<String>("count"), value: "many")  // does not decode: the default
            #expect(await values.next() == 0)
            try await writer.set(count, value: 3)
            #expect(await values.next() == 3)
            try await writer.remove(count)
            #expect(await values.next() == 0)
            #expect(try await !reader.contains(count))
        }
    }
}
