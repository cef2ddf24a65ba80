@testable import ForgeSQLite
import Foundation
import Testing

/// The read cache's rule: a commit of the database's own forgets only its keys when no other connection can have
/// committed since the last own commit; anything else empties it.
struct ReadCacheTests {
    private let first = ReadCache.Key(namespace: Data("store".utf8), name: Data("first".utf8))
    private let second = ReadCache.Key(namespace: Data("store".utf8), name: Data("second".utf8))
    private let value = KVStoredValue(json: Data("1".utf8))

    /// A cache holding `first` at watcher version 2, after an own commit read versions (2, 7).
    private func cacheAfterAnOwnCommit() -> ReadCache {
        var cache = ReadCache()
        cache.committed(changing: [second], watcherVersion: 2, writerVersion: 7)
        _ = cache.value(for: first, dataVersion: 2)
        cache.keep(value, for: first, readAt: cache.generation)
        return cache
    }

    @Test func aChainOfOwnCommitsForgetsOnlyTheirKeys() {
        var cache = cacheAfterAnOwnCommit()
        cache.committed(changing: [second], watcherVersion: 3, writerVersion: 7)
        #expect(cache.value(for: first, dataVersion: 3).flatMap { $0 }?.json == value.json)
        #expect(cache.value(for: second, dataVersion: 3) == nil)
    }

    @Test func theFirstOwnCommitEmptiesTheCache() {
        var cache = ReadCache()
        _ = cache.value(for: first, dataVersion: 1)
        cache.keep(value, for: first, readAt: cache.generation)
        cache.committed(changing: [second], watcherVersion: 2, writerVersion: 7)
        #expect(cache.value(for: first, dataVersion: 2) == nil)
    }

    @Test func anotherConnectionsCommitSeenByTheWriterEmptiesTheCache() {
        var cache = cacheAfterAnOwnCommit()
        cache.committed(changing: [second], watcherVersion: 3, writerVersion: 8)
        #expect(cache.value(for: first, dataVersion: 3) == nil)
    }

    @Test func anotherConnectionsCommitSeenByAReadEmptiesTheCache() {
        var cache = cacheAfterAnOwnCommit()
        _ = cache.value(for: second, dataVersion: 3)  // a read found the watcher moved
        cache.keep(value, for: first, readAt: cache.generation)
        cache.committed(changing: [second], watcherVersion: 4, writerVersion: 7)
        #expect(cache.value(for: first, dataVersion: 4) == nil)
    }

    @Test func aCommitOfAnyKeyOrAFailedWriteEmptiesTheCacheAndEndsTheChain() {
        var cache = cacheAfterAnOwnCommit()
        cache.committed(changing: nil, watcherVersion: 3, writerVersion: 7)
        #expect(cache.value(for: first, dataVersion: 3) == nil)

        cache = cacheAfterAnOwnCommit()
        cache.forget([second])
        #expect(cache.value(for: first, dataVersion: 2).flatMap { $0 }?.json == value.json)
        cache.committed(changing: [second], watcherVersion: 3, writerVersion: 7)
        #expect(cache.value(for: first, dataVersion: 3) == nil)
    }

    @Test func aReadBegunBeforeACommitKeepsNothing() {
        var cache = cacheAfterAnOwnCommit()
        let generation = cache.generation
        cache.committed(changing: [second], watcherVersion: 3, writerVersion: 7)
        cache.keep(value, for: second, readAt: generation)
        #expect(cache.value(for: second, dataVersion: 3) == nil)
    }
}
