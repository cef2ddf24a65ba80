@testable import ForgeSQLite
import Foundation
import Testing

/// The read cache's rule: values are kept under one data version of the watching connection; a write forgets its keys,
/// and a read that began before a write keeps nothing.
struct ReadCacheTests {
    private let first = ReadCache.Key(namespace: Data("store".utf8), name: Data("first".utf8))
    private let second = ReadCache.Key(namespace: Data("store".utf8), name: Data("second".utf8))
    private let value = KVStoredValue(json: Data("1".utf8))

    /// A cache holding `first` and `second` at data version 2.
    private func cacheHoldingBoth() -> ReadCache {
        var cache = ReadCache()
        _ = cache.value(for: first, dataVersion: 2)
        cache.keep(value, for: first, readAt: cache.generation)
        cache.keep(value, for: second, readAt: cache.generation)
        return cache
    }

    @Test func aValueIsKeptWhileTheDataVersionStays() {
        var cache = cacheHoldingBoth()
        #expect(cache.value(for: first, dataVersion: 2).flatMap { $0 }?.json == value.json)
        #expect(cache.value(for: first, dataVersion: 3) == nil)
        #expect(cache.value(for: second, dataVersion: 3) == nil)
    }

    @Test func aWriteForgetsItsKeysOnlyAndAnyWriteForgetsAll() {
        var cache = cacheHoldingBoth()
        cache.forget([second])
        #expect(cache.value(for: second, dataVersion: 2) == nil)
        #expect(cache.value(for: first, dataVersion: 2).flatMap { $0 }?.json == value.json)
        cache.forget(nil)
        #expect(cache.value(for: first, dataVersion: 2) == nil)
    }

    @Test func aReadBegunBeforeAWriteKeepsNothing() {
        var cache = cacheHoldingBoth()
        let generation = cache.generation
        cache.forget([])
        cache.keep(value, for: first, readAt: generation)
        cache.forget([first])
        cache.keep(value, for: first, readAt: generation)
        #expect(cache.value(for: first, dataVersion: 2) == nil)
    }
}
