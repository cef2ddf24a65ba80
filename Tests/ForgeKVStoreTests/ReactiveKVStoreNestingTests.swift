import ForgeKVStore
import ForgeStorageTesting
import Testing

/// A `ReactiveKVStore` over another one (a container that wraps whatever store it is given) sees the writes made
/// through the inner one, over a store that tells of no change itself; the inner one still sees the outer's writes.
///
/// Each step makes a stream, whose first value is read when it is made, then writes through the other wrapper and
/// awaits the written value: only a change the wrapper was told of brings it.
struct ReactiveKVStoreNestingTests {
    private let key = KVKey<Int>("count")

    /// Makes a stream of `key` over `observer`, makes `change` through the other wrapper, and awaits `expected`.
    private func expect(
        _ expected: Int?,
        in observer: ReactiveKVStore,
        after change: () throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let values = observer.stream(key)
        try change()
        let seen = try await awaitElement(of: "count \(String(describing: expected))", in: values) { $0 == expected }
        #expect(seen == expected, sourceLocation: sourceLocation)
    }

    @Test func anOuterWrapperSeesTheInnerWrappersWrites() async throws {
        let inner = ReactiveKVStore(TableKVStore(table: TableKVStore.Table(), namespace: "settings"))
        let outer = ReactiveKVStore(inner)
        try await expect(1, in: outer) { try inner.set(key, value: 1) }
        try await expect(nil, in: outer) { try inner.remove(key) }
        try await expect(3, in: outer) { try inner.set(key, value: 3) }
        try await expect(nil, in: outer) { try inner.removeAll() }
    }

    @Test func theInnerWrapperStillSeesTheOutersWrites() async throws {
        let inner = ReactiveKVStore(TableKVStore(table: TableKVStore.Table(), namespace: "settings"))
        let outer = ReactiveKVStore(inner)
        try await expect(1, in: inner) { try outer.set(key, value: 1) }
    }
}
