import ForgeKVStore
import ForgeStorageTesting
import Foundation
import Testing

/// The one expiry wake-up of the key streams: it runs at the date scheduled last, and never once cancelled.
struct KVExpiryWakeTests {
    @Test func wakesAtTheDateScheduledLastAndNeverOnceCancelled() async {
        let clock = ManualExpiryClock()
        let start = clock.now
        let (wakes, woke) = AsyncStream<Date>.makeStream()
        let wake = KVExpiryWake(clock: clock) { woke.yield(clock.now) }
        wake.schedule(at: start.addingTimeInterval(10))
        wake.cancel()
        clock.advance(by: .seconds(10))  // the cancelled wake-up's date
        wake.schedule(at: start.addingTimeInterval(30))
        wake.schedule(at: start.addingTimeInterval(20))  // in place of the one for 30
        clock.advance(by: .seconds(10))
        var woken = wakes.makeAsyncIterator()
        #expect(await woken.next() == start.addingTimeInterval(20), "the first wake-up is the one scheduled last")
        wake.schedule(at: start.addingTimeInterval(40))
        clock.advance(by: .seconds(20))
        #expect(await woken.next() == start.addingTimeInterval(40))
    }
}
