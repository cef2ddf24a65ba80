import ForgeKVStore
import ForgePostgres
import Foundation
import Testing

/// Streams see a transaction's writes when it commits, as they see single writes, and nothing of a transaction that
/// failed: a stream's next value after a failed transaction is the write that follows it.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresTransactionStreamTests {
    /// A failure a test stages in the middle of a transaction.
    struct Refused: Error, Equatable {}

    @Test func streamsOnThisClientAndAnotherSeeATransactionAndNothingOfOneRolledBack() async throws {
        try await TestServer.withStores(2) { (stores) async throws in
            let (writer, watcher) = (stores[0], stores[1])
            let count = KVKey<Int>("count")
            let label = KVKey<String>("label", migrations: .renamed(from: "title"))
            try await writer.set(KVKey<String>("title"), value: "old")
            var localCounts = writer.stream(count).makeAsyncIterator()
            var counts = watcher.stream(count).makeAsyncIterator()
            var labels = watcher.stream(label).makeAsyncIterator()
            #expect(try await nextValue(&localCounts) == nil)
            #expect(try await nextValue(&counts) == nil)
            #expect(try await nextValue(&labels) == "old")

            try await StorageTransaction.run { transaction in
                try transaction.set(count, value: 1, in: writer)
                try transaction.set(label, value: "new", in: writer)
            }
            #expect(try await nextValue(&localCounts) == 1)
            #expect(try await nextValue(&counts) == 1)
            #expect(try await nextValue(&labels) == "new")

            await #expect(throws: Refused()) {
                try await StorageTransaction.run { transaction in
                    try transaction.set(count, value: 99, in: writer)
                    try transaction.remove(label, in: writer)
                    try transaction.stageFailure(Refused(), in: writer)
                }
            }
            try await writer.set(count, value: 2)
            try await writer.set(label, value: "after")
            #expect(try await nextValue(&localCounts) == 2, "the rolled-back 99 was never told")
            #expect(try await nextValue(&counts) == 2, "the rolled-back 99 was never told")
            #expect(try await nextValue(&labels) == "after", "the rolled-back removal was never told")
        }
    }

    @Test func aStreamInAnotherProcessSeesATransactionAndNothingOfOneRolledBack() async throws {
        let executable = try #require(StreamPeer.executable(), "PostgresStreamPeer was not built beside the tests")
        try await TestServer.withStores { (stores) async throws in
            let writer = stores[0]
            // The key the peer streams.
            let shared = KVKey<String>("shared")
            let peer = try StreamPeer(executable: executable, namespace: writer.namespace)
            defer { peer.stop() }
            var printed = peer.lines.makeAsyncIterator()
            #expect(await printed.next() == "seen -", "the peer did not start streaming")

            try await StorageTransaction.run { transaction in
                try transaction.set(shared, value: "first", in: writer)
                try transaction.set(KVKey<Int>("other"), value: 1, in: writer)
                try transaction.set(shared, value: "committed", in: writer)
            }
            #expect(await printed.next() == "seen committed", "one notified read after the commit finds its end state")

            await #expect(throws: Refused()) {
                try await StorageTransaction.run { transaction in
                    try transaction.set(shared, value: "rolled-back", in: writer)
                    try transaction.stageFailure(Refused(), in: writer)
                }
            }
            try await writer.set(shared, value: "after")
            #expect(await printed.next() == "seen after", "the rolled-back write was never told")
        }
    }
}
