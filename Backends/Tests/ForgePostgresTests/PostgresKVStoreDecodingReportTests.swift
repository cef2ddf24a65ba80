import ForgeKVStore
import ForgePostgres
import Foundation
import Testing

/// A `PostgresKVStore` reports values that do not decode through the library's one wrapper, as every store does.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresKVStoreDecodingReportTests {
    /// The failures a handler received.
    private final class Received: @unchecked Sendable {
        // Safe to share: `failures` is read and written only under `lock`.
        private let lock = NSLock()
        private var failures: [KVDecodingFailure] = []

        var keys: [String] { lock.withLock { failures.map(\.key) } }

        func append(_ failure: KVDecodingFailure) { lock.withLock { failures.append(failure) } }
    }

    @Test func aGetThatReadsAnUndecodableValueAsNilIsReported() async throws {
        try await TestServer.withStores { (stores) async throws in
            let received = Received()
            let store = stores[0].reportingDecodingFailures { received.append($0) }
            try await store.set(KVKey<String>("count"), value: "three")

            #expect(try await store.get(KVKey<Int>("count")) == nil)
            #expect(try await store.get(KVKey<Int>("missing")) == nil)
            #expect(received.keys == ["count"])
        }
    }

    @Test func aReadThroughAKeyWithADefaultThatReturnsTheDefaultForAnUndecodableValueIsReported() async throws {
        try await TestServer.withStores { (stores) async throws in
            let received = Received()
            let store = stores[0].reportingDecodingFailures { received.append($0) }
            let count = KVKeyWithDefault("count", default: 0)
            try await store.set(KVKey<String>("count"), value: "three")

            #expect(try await store.get(count) == 0)
            #expect(try await store.get(KVKeyWithDefault("missing", default: 1)) == 1)
            #expect(received.keys == ["count"])
            await #expect(throws: KVStoreError.self) { try await store.value(for: count) }
            #expect(received.keys == ["count"], "value(for:) throws instead of reporting")
        }
    }
}
