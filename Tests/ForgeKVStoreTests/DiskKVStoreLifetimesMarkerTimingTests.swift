import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// What the `.forge-lifetimes` marker saves: `contains`, `keys()` and a reclaim over 1,000 keys in a fresh folder,
/// without a lifetime (no marker: a `stat` and a listing) and with one lifetime written (the marker: every file read),
/// beside the `stat` alone that `contains` was before lifetimes came.
///
/// A measurement of time, so it runs only with `FORGE_TIMING_TESTS=1` (see `TimingTests`), once, and prints its
/// figures rather than fail on them.
struct DiskKVStoreLifetimesMarkerTimingTests {
    /// How many keys the folder holds.
    private static let keyCount = 1_000
    /// How many times `keys()` is timed.
    private static let listingRuns = 21

    @Test(.enabled(if: TimingTests.areEnabled, "a measurement of time: set FORGE_TIMING_TESTS=1 to run it"))
    func containsAndKeysWithoutAndWithTheMarker() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = DiskKVStore(directory: .custom(folder), namespace: "timing", expiry: KVExpiry(clock: clock))
            let keys = (0..<Self.keyCount).map { KVKey<Int>("key.\($0)") }
            for (index, key) in keys.enumerated() { try store.set(key, value: index) }

            let plain = try measure(store, keys)
            try store.set(KVKey<String>("session"), value: "t0k3n", expiresAfter: .seconds(3600))
            let marked = try measure(store, keys)

            let timer = ContinuousClock()
            let statAlone = median(keys.map { key in timer.measure { _ = store.hasValue(named: key.key) } })
            let markedBackend = median(
                keys.map { key in timer.measure { _ = store.hasValue(named: key.key, liveAt: clock.now) } }
            )
            print(
                """
                DiskKVStore, \(Self.keyCount) keys, median of \(Self.keyCount) contains, \(Self.listingRuns) keys() \
                and \(Self.listingRuns) reclaims that find nothing expired:
                  without a lifetime (no marker): contains \(format(plain.contains)), keys() \(format(plain.keys)), \
                reclaim \(format(plain.reclaim))
                  with one lifetime (marker):     contains \(format(marked.contains)), keys() \(format(marked.keys)), \
                reclaim \(format(marked.reclaim))
                  the backend's hasValue(named:liveAt:) that contains calls: \(format(plain.backend)) without the \
                marker, \(format(markedBackend)) with it; hasValue(named:), the stat alone: \(format(statAlone))
                """
            )
        }
    }

    /// The median time of `contains` over `keys`, of `keys()` and of a reclaim that finds nothing expired, on `store`.
    private func measure(
        _ store: DiskKVStore,
        _ keys: [KVKey<Int>]
    ) throws -> (contains: Duration, keys: Duration, reclaim: Duration, backend: Duration) {
        let clock = ContinuousClock()
        var containsTimes: [Duration] = []
        for key in keys {
            var found = false
            containsTimes.append(clock.measure { found = store.contains(key) })
            #expect(found)
        }
        var listingTimes: [Duration] = []
        for _ in 0..<Self.listingRuns {
            var count = 0
            listingTimes.append(try clock.measure { count = try store.keys().count })
            #expect(count >= keys.count)
        }
        var reclaimTimes: [Duration] = []
        for _ in 0..<Self.listingRuns {
            var removed = 0
            reclaimTimes.append(try clock.measure { removed = try store.reclaimExpiredValues(limit: 16) })
            #expect(removed == 0)
        }
        let now = Date()
        let backend = median(keys.map { key in clock.measure { _ = store.hasValue(named: key.key, liveAt: now) } })
        return (median(containsTimes), median(listingTimes), median(reclaimTimes), backend)
    }

    /// The middle of `times`.
    private func median(_ times: [Duration]) -> Duration {
        let sorted = times.sorted()
        return sorted.isEmpty ? .zero : sorted[sorted.count / 2]
    }

    /// `duration` in microseconds, or milliseconds when it is longer.
    private func format(_ duration: Duration) -> String {
        let microseconds = Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
        return microseconds < 1_000
            ? String(format: "%.1f µs", microseconds) : String(format: "%.2f ms", microseconds / 1_000)
    }
}
