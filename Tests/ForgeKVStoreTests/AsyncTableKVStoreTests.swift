import ForgeKVStore
import ForgeStorageTesting
import Foundation
import Testing

/// A store that implements only ``AsyncKVBackend`` gets the asynchronous typed API from the library and passes the
/// whole asynchronous conformance suite; the decoding-report wrapper keeps its `get`'s failures as they are.
struct AsyncTableKVStoreTests {
    @Test func passesTheAsyncConformanceSuite() async {
        await AsyncKVStoringConformance.run(makeSubject: {
            let table = TableKVStore.Table()
            return AsyncKVStoringConformance.Subject(
                AsyncTableKVStore(table: table, namespace: "store"),
                reopen: { AsyncTableKVStore(table: table, namespace: "store") },
                neighbour: AsyncTableKVStore(table: table, namespace: "neighbour")
            )
        })
    }

    @Test func migratesReportsWhenWrappedAndShowsItsRawJSON() async throws {
        let table = TableKVStore.Table()
        let reported = ReportedKeys()
        let backend = AsyncTableKVStore(table: table, namespace: "store")
        let store = backend.reportingDecodingFailures { reported.append($0.key) }
        try await store.set(KVKey<String>("theme"), value: "dark")
        let appearance = KVKey<[String: String]>(
            "appearance",
            migrations: .from(String.self, key: "theme") { ["theme": $0] }
        )

        #expect(try await store.get(appearance) == ["theme": "dark"])
        #expect(try await store.get(KVKey<Int>("theme")) == nil)
        #expect(reported.keys == ["theme"])
        #expect(try await backend.rawJSON(forKey: "theme") == Data(#""dark""#.utf8))
    }

    @Test func aReadThatFailsThrowsThroughTheReportingWrapperAsWithout() async throws {
        var failing = AsyncTableKVStore(table: TableKVStore.Table(), namespace: "store")
        failing.readFailure = .readFailed(key: "count", underlying: .ioError)
        let reported = ReportedKeys()
        let wrapped = failing.reportingDecodingFailures { reported.append($0.key) }

        await #expect(throws: KVStoreError.readFailed(key: "count", underlying: .ioError)) {
            try await failing.get(KVKey<Int>("count"))
        }
        await #expect(throws: KVStoreError.readFailed(key: "count", underlying: .ioError)) {
            try await wrapped.get(KVKey<Int>("count"))
        }
        #expect(reported.keys.isEmpty)
    }
}

/// The keys a decoding-report handler received.
private final class ReportedKeys: @unchecked Sendable {
    // Safe to share: `received` is read and written only under `lock`.
    private let lock = NSLock()
    private var received: [String] = []

    var keys: [String] { lock.withLock { received } }

    func append(_ key: String) { lock.withLock { received.append(key) } }
}
