internal import ForgeKVStore
internal import Foundation
internal import Testing

extension ExpiryConformance {
    /// A seeded sequence of sets (with and without lifetimes, `.unchanged` included, of plain keys and of a key that
    /// migrates from one of them), sets if absent, removes, clock moves and reclaims, made on the subject's store and
    /// on an in-memory twin with a clock of its own moved alike: after each step, every key reads, is contained, is
    /// listed and expires as on the twin, and a set if absent stores where the twin's does.
    static func answersAsTheTwinDoes(_ subject: Subject) async throws {
        let twinClock = ManualExpiryClock(start: subject.clock.now)
        let twin: any AsyncExpiringKVStoring = InMemoryKVStore(expiry: KVExpiry(clock: twinClock))
        let store = subject.store
        let plain = (0..<3).map { KVKey<Int>("forge.expiry.seeded.\($0)") }
        // A key that migrates from the first: an expired value under either name must read alike.
        let keys = plain + [KVKey<Int>("forge.expiry.seeded.renamed", migrations: .renamed(from: plain[0].key))]
        var random = SeededRandom(seed: 0x0E_2026)
        for step in 0..<120 {
            let key = keys[Int.random(in: 0..<keys.count, using: &random)]
            let value = Int.random(in: 0..<1000, using: &random)
            var description = ""
            switch Int.random(in: 0..<9, using: &random) {
            case 0:
                description = "set \(key.key) = \(value)"
                try await twin.set(key, value: value)
                try await store.set(key, value: value)
            case 1:
                let lifetime = KVLifetime.after(.microseconds(Int64.random(in: 0..<4_000_000, using: &random)))
                description = "set \(key.key) = \(value), \(lifetime)"
                try await twin.set(key, value: value, lifetime: lifetime)
                try await store.set(key, value: value, lifetime: lifetime)
            case 2:
                let offset = TimeInterval(Int64.random(in: -1_000_000..<4_000_000, using: &random)) / 1_000_000
                description = "set \(key.key) = \(value) until now + \(offset) s"
                try await twin.set(key, value: value, lifetime: .until(twinClock.now.addingTimeInterval(offset)))
                try await store.set(key, value: value, lifetime: .until(subject.clock.now.addingTimeInterval(offset)))
            case 3:
                description = "set \(key.key) = \(value), unchanged"
                try await twin.set(key, value: value, lifetime: .unchanged)
                try await store.set(key, value: value, lifetime: .unchanged)
            case 8:
                let lifetime = KVLifetime.after(.microseconds(Int64.random(in: 0..<4_000_000, using: &random)))
                description = "set \(key.key) = \(value) if absent, \(lifetime)"
                let storedByTwin = try await twin.setIfAbsent(key, value: value, lifetime: lifetime)
                let stored = try await store.setIfAbsent(key, value: value, lifetime: lifetime)
                #expect(stored == storedByTwin, "step \(step)")
            case 4:
                description = "remove \(key.key)"
                try await twin.remove(key)
                try await store.remove(key)
            case 5:
                // Every expired value: which of them a smaller limit takes is each store's own (a dictionary's order
                // differs from run to run), and a later remove of one that only the other store took would make the
                // next counts differ. The draw stays, so that the seed makes the same sequence.
                _ = Int.random(in: 1...3, using: &random)
                let limit = keys.count
                description = "reclaim up to \(limit)"
                let reclaimedByTwin = try await twin.reclaimExpiredValues(limit: limit)
                #expect(try await store.reclaimExpiredValues(limit: limit) == reclaimedByTwin, "step \(step)")
            default:
                let advance = Duration.microseconds(Int64.random(in: 0..<2_000_000, using: &random))
                description = "advance \(advance)"
                twinClock.advance(by: advance)
                subject.clock.advance(by: advance)
            }
            let context = "step \(step): \(description)"
            #expect(try await store.keys() == twin.keys(), "\(context)")
            for key in keys {
                #expect(try await store.get(key) == twin.get(key), "\(context); get \(key.key)")
                #expect(try await store.contains(key) == twin.contains(key), "\(context); contains \(key.key)")
                #expect(
                    try await store.expirationDate(of: key) == twin.expirationDate(of: key),
                    "\(context); expiration of \(key.key)"
                )
            }
        }
    }
}

/// A seeded generator (SplitMix64), so that a failing sequence runs again as it failed.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
