internal import ForgeCore
public import Foundation

/// Wakes a stream of a key when the value it emitted last expires, so that it reads the key again and emits nil (or
/// an older name's value): one wake-up waiting at a time, on the store's clock.
///
/// `ReactiveKVStore`'s streams and the PostgreSQL store's streams use it; a store of your own with `stream(_:)` can
/// too:
///
/// ```swift
/// let expiryWake = KVExpiryWake(clock: expiry.clock) { changes.yield() }
/// // after each read of the key:
/// expiryWake.schedule(at: earliestExpirationOfTheValueRead)
/// ```
public final class KVExpiryWake: Sendable {
    /// The clock to wait on.
    private let clock: any ExpiryClock
    /// What to run when the date comes.
    private let wake: @Sendable () -> Void
    /// The wake-up waiting, with its date.
    private let waiting = LockedState<(date: Date, task: Task<Void, Never>)?>(nil)

    /// A wake-up that runs `wake` when a date scheduled on `clock` comes.
    public init(clock: any ExpiryClock, wake: @escaping @Sendable () -> Void) {
        self.clock = clock
        self.wake = wake
    }

    /// Runs the wake-up at `date`, in place of the one waiting (kept when it waits for the same date); nil runs none.
    public func schedule(at date: Date?) {
        waiting.withLock { waiting in
            guard waiting?.date != date else { return }
            waiting?.task.cancel()
            waiting = date.map { date in
                (date, Task { [clock, wake] in if (try? await clock.sleep(until: date)) != nil { wake() } })
            }
        }
    }

    /// Cancels the wake-up waiting, if any.
    public func cancel() {
        schedule(at: nil)
    }

    deinit {
        waiting.withLock { $0?.task.cancel() }
    }
}
