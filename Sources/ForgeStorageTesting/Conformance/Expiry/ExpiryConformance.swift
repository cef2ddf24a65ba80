internal import ForgeKVStore
internal import Foundation
import Testing

/// The behaviour every key-value store that keeps lifetimes shares (`InMemoryKVStore`, `DiskKVStore`, the SQLite and
/// PostgreSQL stores, yours): a value reads until its lifetime ends, by the store's clock, and as missing from that
/// instant on, on every call; a write without a lifetime drops the old one; expired values are reclaimed, and nothing
/// else is.
///
/// Each check gets a fresh, empty store given a ``ManualExpiryClock``, and moves that clock:
///
/// ```swift
/// @Test(arguments: ExpiryConformance.checks)
/// func expiresLikeEveryStore(_ check: ExpiryConformance.Check) async throws {
///     let clock = ManualExpiryClock()
///     let store = InMemoryKVStore(expiry: KVExpiry(clock: clock))
///     try await check.run(on: .init(synchronous: store, clock: clock))
/// }
/// ```
public enum ExpiryConformance: ConformanceSuite {
    /// Every check of the suite, in a stable order; each names the behaviour it pins down.
    public static var checks: [Check] {
        [
            Check("a value with a lifetime reads until it ends, and as missing from that instant on", expiresAtItsEnd),
            Check("a lifetime ends on a whole millisecond, rounded up", lifetimesEndOnWholeMilliseconds),
            Check("a write without a lifetime stores a value that never expires", aPlainWriteDropsTheLifetime),
            Check("a write with an unchanged lifetime keeps the lifetime of the value it replaces", unchangedKeepsIt),
            Check("a lifetime already past stores a value that reads as missing", aPastLifetimeReadsAsMissing),
            Check("an expired value under an older name is not migrated", anExpiredOlderValueIsNotMigrated),
            Check(
                "a write with a lifetime removes the key's older names, so that no older value is read once it expires",
                anExpiredValueIsNotReplacedByAnOlderOne
            ),
            Check(
                "a lifetime beyond the latest date a store keeps ends then, and a date that is not a number is refused",
                extremeLifetimesAreKeptOrRefused
            ),
            Check("reclaiming removes expired values, up to its limit, and nothing else", reclaimingRemovesOnlyExpired),
            Check(
                "removeAll forgets the lifetimes it removed: a reclaim spends its limit on values still stored",
                removeAllForgetsTheLifetimes
            ),
            Check("writes reclaim expired values without being asked", writesReclaimExpiredValues),
            Check(
                "seeded writes, removes, clock moves and reclaims answer as on the in-memory twin",
                answersAsTheTwinDoes
            ),
            Check(
                "another instance on the same storage sees the lifetime",
                unmetNeed: { $0.otherInstance == nil ? "the subject has no second instance" : nil },
                anotherInstanceSeesTheLifetime
            ),
            Check(
                "a value a transaction stages with a lifetime expires as one set with it",
                unmetNeed: { $0.transactional == nil ? "the store takes no part in transactions" : nil },
                aTransactionStoresTheLifetime
            ),
            Check(
                "a stream emits nil when the value it holds expires",
                unmetNeed: { $0.stream == nil ? "the subject has no stream" : nil },
                aStreamEmitsNilWhenTheValueExpires
            ),
        ] + setIfAbsentChecks
    }

    /// `date` as whole milliseconds since 1970, the precision stores keep, so that dates compare exactly.
    static func milliseconds(_ date: Date?) -> Int64? {
        date.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
    }

    static let token = KVKey<String>("forge.expiry.token")
    static let other = KVKey<String>("forge.expiry.other")
    static let third = KVKey<String>("forge.expiry.third")

    private static func expiresAtItsEnd(_ subject: Subject) async throws {
        let store = subject.store
        let start = subject.clock.now
        try await store.set(token, value: "t0k3n", expiresAfter: .seconds(60))
        try await store.set(other, value: "kept")
        #expect(milliseconds(try await store.expirationDate(of: token)) == milliseconds(start.addingTimeInterval(60)))
        #expect(try await store.expirationDate(of: other) == nil, "a value without a lifetime has no expiration date")

        subject.clock.advance(by: .milliseconds(59_999))
        #expect(try await store.get(token) == "t0k3n", "one millisecond before its end, the value is there")
        #expect(try await store.contains(token))
        #expect(try await store.keys() == [other.key, token.key])

        subject.clock.advance(by: .milliseconds(1))
        #expect(try await store.get(token) == nil, "at its end, the value reads as missing")
        #expect(try await store.value(for: token) == nil, "value(for:) finds nothing, and throws nothing")
        #expect(try await store.contains(token) == false)
        #expect(try await store.keys() == [other.key], "an expired key is not listed")
        #expect(try await store.expirationDate(of: token) == nil)
        #expect(try await store.get(other) == "kept", "a value without a lifetime stays")

        try await store.set(token, value: "renewed", expiresAfter: .seconds(10))
        #expect(try await store.get(token) == "renewed", "an expired key takes a new value")
    }

    private static func lifetimesEndOnWholeMilliseconds(_ subject: Subject) async throws {
        let store = subject.store
        let start = subject.clock.now
        try await store.set(token, value: "t0k3n", lifetime: .until(start.addingTimeInterval(0.0105)))
        #expect(
            milliseconds(try await store.expirationDate(of: token)) == milliseconds(start.addingTimeInterval(0.011))
        )
        subject.clock.advance(by: .microseconds(10_999))
        #expect(try await store.get(token) == "t0k3n", "the value is there until the millisecond it was rounded to")
        subject.clock.advance(by: .microseconds(1))
        #expect(try await store.get(token) == nil)
    }

    private static func aPlainWriteDropsTheLifetime(_ subject: Subject) async throws {
        let store = subject.store
        try await store.set(token, value: "short", expiresAfter: .seconds(10))
        try await store.set(token, value: "plain")
        #expect(try await store.expirationDate(of: token) == nil)
        subject.clock.advance(by: .seconds(86_400))
        #expect(try await store.get(token) == "plain", "set(_:value:) drops the lifetime of the value it replaces")

        try await store.set(other, value: "short", expiresAfter: .seconds(10))
        try await store.set(other, value: "forever", lifetime: .forever)
        subject.clock.advance(by: .seconds(86_400))
        #expect(try await store.get(other) == "forever")
    }

    private static func unchangedKeepsIt(_ subject: Subject) async throws {
        let store = subject.store
        let start = subject.clock.now
        try await store.set(token, value: "first", expiresAfter: .seconds(10))
        subject.clock.advance(by: .seconds(5))
        try await store.set(token, value: "second", lifetime: .unchanged)
        #expect(try await store.get(token) == "second")
        #expect(milliseconds(try await store.expirationDate(of: token)) == milliseconds(start.addingTimeInterval(10)))
        subject.clock.advance(by: .seconds(5))
        #expect(try await store.get(token) == nil, "the value ends when the value it replaced would have")

        try await store.set(other, value: "new", lifetime: .unchanged)
        #expect(try await store.expirationDate(of: other) == nil, "a key that held nothing keeps no lifetime")
        try await store.set(third, value: "old", expiresAfter: .seconds(1))
        subject.clock.advance(by: .seconds(1))
        try await store.set(third, value: "new", lifetime: .unchanged)
        #expect(try await store.get(third) == "new", "the lifetime of an expired value is not kept")

        let older = KVKey<String>("forge.expiry.older")
        let renamed = KVKey<String>("forge.expiry.renamed.unchanged", migrations: .renamed(from: older.key))
        try await store.set(older, value: "v1", expiresAfter: .seconds(20))
        let olderEnds = try await store.expirationDate(of: older)
        try await store.set(renamed, value: "v2", lifetime: .unchanged)
        #expect(
            milliseconds(try await store.expirationDate(of: renamed)) == milliseconds(olderEnds),
            "a migrating key keeps the lifetime of the older value it reads"
        )
        #expect(try await store.get(older) == nil, "which its write with that lifetime replaces")
    }

    private static func aPastLifetimeReadsAsMissing(_ subject: Subject) async throws {
        let store = subject.store
        try await store.set(token, value: "stale", lifetime: .until(subject.clock.now.addingTimeInterval(-1)))
        #expect(try await store.get(token) == nil)
        #expect(try await store.contains(token) == false)
        #expect(try await store.keys() == [])
        try await store.set(other, value: "zero", expiresAfter: .zero)
        #expect(try await store.get(other) == nil, "a lifetime of zero ends as it starts")
    }

    private static func anExpiredOlderValueIsNotMigrated(_ subject: Subject) async throws {
        let store = subject.store
        let renamed = KVKey<String>("forge.expiry.renamed", migrations: .renamed(from: token.key))
        try await store.set(token, value: "old", expiresAfter: .seconds(10))
        #expect(try await store.get(renamed) == "old", "a live value under the older name is migrated")
        subject.clock.advance(by: .seconds(10))
        #expect(try await store.get(renamed) == nil)
        #expect(try await store.contains(renamed) == false)
    }

    private static func anExpiredValueIsNotReplacedByAnOlderOne(_ subject: Subject) async throws {
        let store = subject.store
        let renamed = KVKey<String>("forge.expiry.renamed", migrations: .renamed(from: token.key))
        try await store.set(token, value: "from version 1")
        try await store.set(renamed, value: "fresh", expiresAfter: .seconds(10))
        #expect(try await store.get(renamed) == "fresh")
        #expect(try await store.get(token) == nil, "a write with a lifetime removes the key's older names")
        subject.clock.advance(by: .seconds(10))
        #expect(try await store.get(renamed) == nil, "once it expires, no older value is read in its place")
        #expect(try await store.value(for: renamed) == nil)
        #expect(try await store.contains(renamed) == false)
        #expect(try await store.reclaimExpiredValues(limit: 10) == 1)
        #expect(try await store.get(renamed) == nil, "nor once it is reclaimed")
    }

    private static func extremeLifetimesAreKeptOrRefused(_ subject: Subject) async throws {
        let store = subject.store
        try await store.set(token, value: "long", expiresAfter: .seconds(Int64.max))
        #expect(try await store.get(token) == "long")
        #expect(milliseconds(try await store.expirationDate(of: token)) == milliseconds(Date.distantFuture))
        try await store.set(other, value: "far", lifetime: .until(Date(timeIntervalSince1970: 1e17)))
        #expect(try await store.get(other) == "far")
        try await store.set(third, value: "kept")
        await #expect(throws: KVStoreError.self, "a date that is not a number is a typed error") {
            try await store.set(third, value: "nan", lifetime: .until(Date(timeIntervalSince1970: .nan)))
        }
        #expect(try await store.get(third) == "kept", "and the value stored before stays")
        subject.clock.advance(by: .seconds(86_400 * 365 * 100))
        #expect(try await store.get(token) == "long")
    }

    private static func reclaimingRemovesOnlyExpired(_ subject: Subject) async throws {
        let store = subject.store
        for index in 0..<3 {
            try await store.set(
                KVKey<String>("forge.expiry.short.\(index)"),
                value: "short",
                expiresAfter: .seconds(10)
            )
        }
        try await store.set(token, value: "long", expiresAfter: .seconds(100))
        try await store.set(other, value: "forever")
        subject.clock.advance(by: .seconds(10))

        #expect(try await store.reclaimExpiredValues(limit: 0) == 0, "a reclaim of limit 0 removes nothing")
        #expect(try await store.reclaimExpiredValues(limit: -1) == 0, "nor does a negative limit")
        #expect(try await store.reclaimExpiredValues(limit: 2) == 2, "a reclaim removes no more than its limit")
        #expect(try await store.reclaimExpiredValues(limit: 10) == 1)
        #expect(try await store.reclaimExpiredValues(limit: 10) == 0)

        try await store.set(third, value: "once", expiresAfter: .seconds(10))
        subject.clock.advance(by: .seconds(10))
        try await store.set(third, value: "again")
        #expect(try await store.reclaimExpiredValues(limit: 10) == 0)
        #expect(try await store.get(token) == "long")
        #expect(try await store.get(other) == "forever")
        #expect(try await store.get(third) == "again", "a value set again after it expired is not reclaimed")
        #expect(try await store.keys() == [other.key, third.key, token.key])
    }

    /// A store that keeps an index of expiry dates clears it with the values: otherwise a reclaim after `removeAll()`
    /// counts values that are gone against its limit and leaves expired ones stored.
    private static func removeAllForgetsTheLifetimes(_ subject: Subject) async throws {
        let store = subject.store
        for index in 0..<4 {
            try await store.set(
                KVKey<String>("forge.expiry.cleared.\(index)"),
                value: "gone",
                expiresAfter: .seconds(5)
            )
        }
        try await store.removeAll()
        for index in 0..<2 {
            try await store.set(KVKey<String>("forge.expiry.fresh.\(index)"), value: "kept", expiresAfter: .seconds(10))
        }
        subject.clock.advance(by: .seconds(10))
        #expect(try await store.reclaimExpiredValues(limit: 2) == 2, "the two values stored since removeAll")
        #expect(try await store.reclaimExpiredValues(limit: 10) == 0, "nothing expired is left")
        #expect(try await store.keys() == [])
    }

    private static func writesReclaimExpiredValues(_ subject: Subject) async throws {
        let store = subject.store
        let limit = try #require(store.expiry).reclaimLimit
        try await store.set(other, value: "first write")
        for index in 0..<min(limit, 4) {
            try await store.set(
                KVKey<String>("forge.expiry.short.\(index)"),
                value: "short",
                expiresAfter: .seconds(10)
            )
        }
        subject.clock.advance(by: .seconds(10))
        try await store.set(token, value: "a write after they expired")
        #expect(
            try await store.reclaimExpiredValues(limit: 100) == 0,
            "the write reclaimed the values this instance stored, once they had expired"
        )
    }

    private static func anotherInstanceSeesTheLifetime(_ subject: Subject) async throws {
        let other = try #require(subject.otherInstance)
        let start = subject.clock.now
        try await subject.store.set(token, value: "shared", expiresAfter: .seconds(30))
        #expect(try await other.get(token) == "shared")
        #expect(milliseconds(try await other.expirationDate(of: token)) == milliseconds(start.addingTimeInterval(30)))
        subject.clock.advance(by: .seconds(30))
        #expect(try await other.get(token) == nil)
        #expect(try await other.reclaimExpiredValues(limit: 10) == 1, "another instance reclaims it")
        #expect(try await subject.store.reclaimExpiredValues(limit: 10) == 0)
    }

    private static func aTransactionStoresTheLifetime(_ subject: Subject) async throws {
        let store = try #require(subject.transactional)
        let start = subject.clock.now
        try await subject.store.set(other, value: "short", expiresAfter: .seconds(5))
        try await StorageTransaction.run { transaction in
            try transaction.set(token, value: "staged", expiresAfter: .seconds(30), in: store)
            try transaction.set(other, value: "plain", in: store)
        }
        #expect(milliseconds(try await store.expirationDate(of: token)) == milliseconds(start.addingTimeInterval(30)))
        #expect(try await store.expirationDate(of: other) == nil, "a staged write without a lifetime drops the old one")
        subject.clock.advance(by: .seconds(30))
        #expect(try await store.get(token) == nil)
        #expect(try await store.get(other) == "plain")
    }

    private static func aStreamEmitsNilWhenTheValueExpires(_ subject: Subject) async throws {
        let makeStream = try #require(subject.stream)
        try await subject.store.set(token, value: "t0k3n", expiresAfter: .seconds(60))
        let stream = makeStream(token)
        // A stream that never emits fails the check with a ChangeTimeout instead of hanging the test run. The limit is
        // generous: under ThreadSanitizer with the whole suite in parallel, a stream once went past 30 seconds.
        try await withTimeLimit(awaiting: "the stream of '\(token.key)'", within: .seconds(120)) {
            var values = stream.makeAsyncIterator()
            // Past the time limit, the stream ends: the check stops there, leaving the limit as its one failure.
            func next() async throws -> String?? {
                let value = await values.next()
                try Task.checkCancellation()
                return value
            }
            #expect(try await next() == .some("t0k3n"))
            subject.clock.advance(by: .seconds(60))
            #expect(try await next() == .some(nil), "the stream emits nil when the value expires, unasked")
            try await subject.store.set(token, value: "renewed", expiresAfter: .seconds(60))
            #expect(try await next() == .some("renewed"))
            subject.clock.advance(by: .seconds(60))
            #expect(try await next() == .some(nil), "and again for the value set after it")
        }
    }
}
