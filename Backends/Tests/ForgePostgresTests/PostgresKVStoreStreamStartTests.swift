import ForgeKVStore
import Foundation
import PostgresNIO
import Testing

@testable import ForgePostgres

/// A stream made before writes loses none of them: its first value is read once the store listens, so every later
/// write is notified, and the stream ends on what the store holds.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresKVStoreStreamStartTests {
    @Test func aStreamMadeJustBeforeWritesEndsOnWhatTheStoreHolds() async throws {
        try await TestServer.withStores { (stores) async throws in
            let key = KVKey<Int>("count")
            var values = stores[0].stream(key).makeAsyncIterator()
            try await stores[0].set(key, value: 10)
            try await stores[0].set(key, value: 50)
            try await stores[0].remove(key)
            try await stores[0].set(key, value: 7)
            // Values may fold into one, but only in the order they were written, and the last one is never lost.
            var written: [Int?] = [nil, 10, 50, nil, 7]
            var seen: [Int?] = []
            while seen.last != .some(7) {
                let value = try await nextValue(&values)
                seen.append(value)
                let index = try #require(written.firstIndex(of: value), "\(seen) is not in the order written")
                written.removeFirst(index + 1)
            }
            #expect(try await stores[0].get(key) == 7)
        }
    }

    @Test func aStreamListensBeforeItsFirstValue() async throws {
        try await TestServer.withStores { (stores) async throws in
            let key = KVKey<Int>("count")
            for _ in 0..<10 {
                // A store of its own each time, so that its streams start listening afresh.
                let store = PostgresKVStore(client: stores[0].client, namespace: stores[0].namespace)
                var values = store.stream(key).makeAsyncIterator()
                _ = try await nextValue(&values)
                #expect(store.notifications.isListening, "a write made now would not be notified")
            }
        }
    }
}
