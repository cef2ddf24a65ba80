import ForgeCore
import ForgeKVStore
import ForgeTestSupport
import Foundation
import Testing

/// What a `ReactiveKVStore` over a `UserDefaultsKVStore` sees of the values another process stores in the same
/// suite: on Linux, what the other process flushed to the suite's property list.
///
/// Each child (`ForgeCrashWriter defaults`, see `DefaultsCommand`) makes its store calls and exits normally, so its
/// changes reach the property list through the store's flush behind or its exit handler.
@Suite(.enabled(if: FolderWatch.isSupported, "no folder notifications on this platform"))
struct UserDefaultsStreamCrossProcessTests {
    /// Runs the child with `arguments` after `defaults`.
    private func child(_ arguments: String...) async throws {
        let writer = try #require(CrashHarness.writerURL(), "the ForgeCrashWriter executable is missing")
        let result = try await onOwnThread { try Process.runToEnd(writer, arguments: ["defaults"] + arguments) }
        #expect(result.status == 0, "ForgeCrashWriter defaults \(arguments.joined(separator: " ")) failed")
    }

    /// Runs `body` with a fresh suite name and a reactive store on it, and removes the suite afterwards.
    private func withSuite(_ body: (String, ReactiveKVStore) async throws -> Void) async throws {
        let suite = "forge.tests.processes.stream.\(UUID().uuidString)"
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        try await body(suite, ReactiveKVStore(UserDefaultsKVStore(suiteName: suite)))
    }

    /// The values of `stream` up to the first that `isLast` accepts, or nil when it does not come within ten
    /// seconds (or the stream ends first): a guard against a hang when a change is never seen, not a wait for it.
    private func values(
        of stream: AsyncStream<Int?>,
        through isLast: @escaping @Sendable (Int?) -> Bool
    ) async -> [Int?]? {
        await withTaskGroup(of: [Int?]?.self) { group in
            group.addTask {
                var seen: [Int?] = []
                for await value in stream {
                    seen.append(value)
                    if isLast(value) { return seen }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(10))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    @Test func setRemoveAndRemoveAllInAnotherProcessReachTheStream() async throws {
        try await withSuite { suite, reactive in
            let key = KVKey<Int>("count")
            // Each stream is made before its child runs, and buffers what it sees until it is read.
            var stream = reactive.stream(key)
            try await child(suite, "set", "count", "int", "1")
            var seen = await values(of: stream, through: { $0 == 1 })
            #expect(seen?.first == .some(nil) && seen?.last == 1)

            stream = reactive.stream(key)
            try await child(suite, "remove", "count", "int")
            seen = await values(of: stream, through: { $0 == nil })
            #expect(seen == [1, nil])

            try await child(suite, "set", "count", "int", "2")
            stream = reactive.stream(key)
            try await child(suite, "removeAll")
            seen = await values(of: stream, through: { $0 == nil })
            #expect(seen == [2, nil], "the value another process flushed is read when the stream starts")
        }
    }

    @Test func aBurstInAnotherProcessReachesTheStreamEndingWithItsLastValue() async throws {
        try await withSuite { suite, reactive in
            let stream = reactive.stream(KVKey<Int>("count"))
            try await child(suite, "count", "count", "int", "50")
            // Each flush of the child is read when its notification arrives, so the values seen rise and end with
            // the last: a burst shows as the values it had at its flushes.
            let seen = try #require(await values(of: stream, through: { $0 == 50 }))
            let counts = seen.compactMap { $0 }
            #expect(seen.first == .some(nil))
            #expect(counts == counts.sorted() && Set(counts).count == counts.count)
            #expect(counts.last == 50)
        }
    }
}
