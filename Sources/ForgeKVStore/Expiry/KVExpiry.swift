internal import Foundation
internal import ForgeCore

/// How a store keeps values with a lifetime: the clock that says when they expire, and how much work a write may
/// spend reclaiming the space of values that have.
///
/// A store that keeps lifetimes (``ExpiringKVStoring``) is given one at its creation; the default reads the system's
/// clock. An expired value reads as missing at once, on every call; its space is reclaimed later, without anyone
/// asking: a write through the typed API that finds a reclaim due removes up to ``reclaimLimit`` expired values
/// first. A reclaim is due when a value this instance stored with a lifetime has expired, when the last reclaim
/// found as many as its limit, or ``reclaimInterval`` after the last one (or after the settings were made), for values
/// other instances or processes stored. A store nobody writes to reclaims nothing by itself: run an ``ExpiryReaper`` beside it.
///
/// ```swift
/// let clock = ManualExpiryClock()            // ForgeStorageTesting
/// let store = InMemoryKVStore(expiry: KVExpiry(clock: clock))
/// try store.set(SessionKeys.token, value: "t0k3n", expiresAfter: .seconds(3600))
/// clock.advance(by: .seconds(3600))
/// #expect(store.get(SessionKeys.token) == nil)
/// ```
public final class KVExpiry: Sendable {
    /// The clock that says when a value expires.
    public let clock: any ExpiryClock
    /// The most expired values one write reclaims.
    public let reclaimLimit: Int
    /// How long after a reclaim a write looks for expired values again, when none this instance stored is due.
    public let reclaimInterval: Duration

    /// When a write next reclaims expired values: one interval after the settings were made or after the last reclaim,
    /// or when a value stored through them expires, whichever comes first.
    private let schedule: LockedState<Schedule>

    /// The next reclaim, and the expiration dates of values stored through these settings that are still to come.
    private struct Schedule {
        /// When the next reclaim is due.
        var next: Date
        /// The expiration dates noted and not yet past, ascending; at most ``limit``, the earliest kept.
        var noted: [Date] = []

        /// The most dates noted: later ones wait for the interval.
        static let limit = 256

        /// Notes `date`, in order.
        mutating func note(_ date: Date) {
            var low = 0
            var high = noted.count
            while low < high {
                let middle = (low + high) / 2
                if noted[middle] < date { low = middle + 1 } else { high = middle }
            }
            noted.insert(date, at: low)
            if noted.count > Self.limit { noted.removeLast() }
            next = min(next, date)
        }
    }

    /// Creates the expiry settings of a store.
    ///
    /// - Parameters:
    ///   - clock: The clock that says when a value expires. Defaults to the system's.
    ///   - reclaimLimit: The most expired values one write reclaims; at least 1. Defaults to 16.
    ///   - reclaimInterval: How long after a reclaim a write looks again for values stored by other instances or
    ///     processes. Defaults to one minute.
    public init(
        clock: any ExpiryClock = SystemExpiryClock(),
        reclaimLimit: Int = 16,
        reclaimInterval: Duration = .seconds(60)
    ) {
        self.clock = clock
        self.reclaimLimit = max(1, reclaimLimit)
        self.reclaimInterval = reclaimInterval
        self.schedule = LockedState(Schedule(next: clock.now.addingTimeInterval(reclaimInterval.timeInterval)))
    }

    /// The error of a write of `key` with a lifetime to a store that keeps none: its backend's `expiry` is nil.
    static func lifetimeNotKept(_ key: String) -> KVStoreError {
        .writeFailed(key: key, underlying: .other("the store keeps no lifetimes: its backend's `expiry` is nil"))
    }

    /// The time left from `clock`'s now (the system clock's without one) until `date`, in whole milliseconds rounded
    /// down, so that a value set to live a duration never has more left than that duration; zero once it has come.
    static func remainingLifetime(until date: Date, clock: (any ExpiryClock)?) -> Duration {
        let now = clock?.now ?? Date()
        return .milliseconds(max(0, (date.timeIntervalSince(now) * 1000).rounded(.down)))
    }

    /// The time a lifetime of `lifetime` ends, counted from now.
    func expirationDate(after lifetime: Duration) -> Date {
        clock.now.addingTimeInterval(lifetime.timeInterval)
    }

    /// Records that this instance stored a value that expires at `date`, so that the first write after it reclaims.
    func noteStored(expiringAt date: Date) {
        schedule.withLock { $0.note(date) }
    }

    /// The time to reclaim at, when a reclaim is due now; nil when it is not.
    ///
    /// A due reclaim is taken: the next one is due only after ``reclaimInterval``, unless ``reclaimed(_:at:)`` says
    /// more are waiting.
    func takeDueReclaim() -> Date? {
        let now = clock.now
        return schedule.withLock { schedule in
            guard schedule.next <= now else { return nil }
            schedule.noted.removeAll { $0 <= now }
            schedule.next = min(
                now.addingTimeInterval(reclaimInterval.timeInterval),
                schedule.noted.first ?? .distantFuture
            )
            return now
        }
    }

    /// Records what a reclaim at `date` removed: a full batch leaves the next write to go on.
    func reclaimed(_ count: Int, at date: Date) {
        guard count >= reclaimLimit else { return }
        schedule.withLock { $0.next = min($0.next, date) }
    }
}
