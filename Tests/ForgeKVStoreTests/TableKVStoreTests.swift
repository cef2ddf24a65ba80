import ForgeCore
import ForgeKVStore
import ForgeStorageTesting
import Testing

/// A store that implements only ``KVBackend`` (``TableKVStore``, one file) gets the whole typed API from the library
/// and passes the whole conformance suite, sync and async, with migrations, `value(for:)`, `keys()`, decoding reports
/// and streams it did not write.
struct TableKVStoreTests {
    /// A fresh table's store, a second handle on it, and a neighbour in another namespace.
    private static func subject() -> KVStoringConformance.Subject {
        let table = TableKVStore.Table()
        return KVStoringConformance.Subject(
            TableKVStore(table: table, namespace: "store"),
            reopen: { TableKVStore(table: table, namespace: "store") },
            neighbour: TableKVStore(table: table, namespace: "neighbour")
        )
    }

    @Test func passesTheConformanceSuite() async {
        await KVStoringConformance.run(makeSubject: Self.subject)
    }

    @Test func passesTheAsyncConformanceSuite() async {
        await AsyncKVStoringConformance.run(makeSubject: {
            let table = TableKVStore.Table()
            return AsyncKVStoringConformance.Subject(
                TableKVStore(table: table, namespace: "store"),
                reopen: { TableKVStore(table: table, namespace: "store") },
                neighbour: TableKVStore(table: table, namespace: "neighbour")
            )
        })
    }

    @Test func readsWhatAnOlderVersionStoredThroughItsMigrations() throws {
        let store = TableKVStore(table: TableKVStore.Table(), namespace: "store")
        try store.set(KVKey<String>("theme"), value: "dark")
        let appearance = KVKey<[String: String]>(
            "appearance",
            migrations: .from(String.self, key: "theme") { ["theme": $0] }
        )

        #expect(try store.value(for: appearance) == ["theme": "dark"])
        #expect(store.contains(appearance))
        try store.remove(appearance)
        #expect(try store.keys().isEmpty)
    }

    @Test func reportsAValueThatDoesNotDecodeWhenWrapped() throws {
        let failures = LockedState<[KVDecodingFailure]>([])
        let store = TableKVStore(table: TableKVStore.Table(), namespace: "store")
            .reportingDecodingFailures { failure in failures.withLock { $0.append(failure) } }
        try store.set(KVKey<String>("count"), value: "three")

        #expect(store.get(KVKey<Int>("count")) == nil)
        #expect(throws: KVStoreError.self) { try store.value(for: KVKey<Int>("count")) }
        #expect(failures.withLock { $0.map(\.key) } == ["count"])
    }

    @Test func streamsThroughAReactiveStore() async throws {
        let store = ReactiveKVStore(TableKVStore(table: TableKVStore.Table(), namespace: "store"))
        var values = store.stream(KVKey<Int>("count")).makeAsyncIterator()
        #expect(await values.next() == .some(nil))

        try store.set(KVKey<Int>("count"), value: 1)
        #expect(await values.next() == 1)
    }
}
