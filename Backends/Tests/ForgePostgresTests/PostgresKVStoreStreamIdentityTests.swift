import ForgeKVStore
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

/// A stream skips only a value stored identically to the last one it emitted (equal, and stored as the same JSON),
/// the rule `ReactiveKVStore` follows, so its last value is what the store holds.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresKVStoreStreamIdentityTests {
    /// A value whose `==` ignores its note.
    struct Labelled: Codable, Sendable, Equatable {
        let id: Int
        let note: String

        static func == (lhs: Labelled, rhs: Labelled) -> Bool { lhs.id == rhs.id }
    }

    @Test func negativeZeroAfterZeroIsEmitted() async throws {
        try await TestServer.withStores(2) { (stores) async throws in
            let key = KVKey<Double>("zero")
            try await stores[1].set(key, value: 0.0)
            var values = stores[0].stream(key).makeAsyncIterator()
            #expect(try await nextValue(&values)?.sign == .plus)
            try await stores[1].set(key, value: -0.0)
            let next = try await nextValue(&values)
            #expect(next == 0 && next?.sign == .minus, "the store holds -0.0")
        }
    }

    @Test func aValueEqualToTheLastButStoredDifferentlyIsEmitted() async throws {
        try await TestServer.withStores(2) { (stores) async throws in
            let key = KVKey<Labelled>("labelled")
            try await stores[1].set(key, value: Labelled(id: 1, note: "first"))
            var values = stores[0].stream(key).makeAsyncIterator()
            #expect(try await nextValue(&values)?.note == "first")
            try await stores[1].set(key, value: Labelled(id: 1, note: "second"))
            #expect(try await nextValue(&values)?.note == "second")
            #expect(try await stores[0].get(key)?.note == "second")
        }
    }
}
