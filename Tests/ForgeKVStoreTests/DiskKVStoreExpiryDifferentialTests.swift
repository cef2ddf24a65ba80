import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// The disk store expires as its twin does: the same seeded operations on both, compared after each step.
struct DiskKVStoreExpiryDifferentialTests {
    /// The same seeded sequence of sets (with and without lifetimes), removes, clock moves and reclaims, on the twin
    /// and on the store: after each step, every key reads, is contained, is listed and expires alike.
    @Test(arguments: [1, 2, 3, 42, 2026] as [UInt64])
    func answersAsTheTwinDoes(seed: UInt64) async throws {
        try await withTemporaryFolder { folder in
            let twinClock = ManualExpiryClock()
            let clock = ManualExpiryClock()
            let twin = InMemoryKVStore(expiry: KVExpiry(clock: twinClock))
            let store = DiskKVStore(directory: .custom(folder), namespace: "store", expiry: KVExpiry(clock: clock))
            let keys = (0..<5).map { KVKey<Int>("key.\($0)") }
            var random = SeededGenerator(seed: seed)

            for step in 0..<300 {
                let key = keys[Int.random(in: 0..<keys.count, using: &random)]
                let value = Int.random(in: 0..<1000, using: &random)
                let operation = Int.random(in: 0..<8, using: &random)
                var description = ""
                switch operation {
                case 0:
                    description = "set \(key.key) = \(value)"
                    try twin.set(key, value: value)
                    try store.set(key, value: value)
                case 1:
                    let lifetime = KVLifetime.after(.microseconds(Int64.random(in: 0..<4_000_000, using: &random)))
                    description = "set \(key.key) = \(value), \(lifetime)"
                    try twin.set(key, value: value, lifetime: lifetime)
                    try store.set(key, value: value, lifetime: lifetime)
                case 2:
                    let offset = TimeInterval(Int64.random(in: 0..<5_000_000, using: &random) - 1_000_000) / 1_000_000
                    description = "set \(key.key) = \(value) until now + \(offset) s"
                    try twin.set(key, value: value, lifetime: .until(twinClock.now.addingTimeInterval(offset)))
                    try store.set(key, value: value, lifetime: .until(clock.now.addingTimeInterval(offset)))
                case 3:
                    description = "set \(key.key) = \(value), unchanged"
                    try twin.set(key, value: value, lifetime: .unchanged)
                    try store.set(key, value: value, lifetime: .unchanged)
                case 4:
                    description = "remove \(key.key)"
                    try twin.remove(key)
                    try store.remove(key)
                case 5:
                    let limit = Int.random(in: 0..<3, using: &random) + 1
                    description = "reclaim up to \(limit)"
                    #expect(
                        try twin.reclaimExpiredValues(limit: limit) == store.reclaimExpiredValues(limit: limit),
                        "step \(step): \(description)"
                    )
                default:
                    let advance = Duration.microseconds(Int64.random(in: 0..<2_000_000, using: &random))
                    description = "advance \(advance)"
                    twinClock.advance(by: advance)
                    clock.advance(by: advance)
                }
                #expect(try twin.keys() == store.keys(), "step \(step): \(description)")
                for key in keys {
                    #expect(twin.get(key) == store.get(key), "step \(step): \(description); get \(key.key)")
                    #expect(twin.contains(key) == store.contains(key), "step \(step): \(description); \(key.key)")
                    #expect(
                        try twin.expirationDate(of: key) == store.expirationDate(of: key),
                        "step \(step): \(description); expiration of \(key.key)"
                    )
                }
            }
        }
    }
}
