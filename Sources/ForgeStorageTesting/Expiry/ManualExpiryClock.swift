public import ForgeKVStore
public import Foundation
internal import ForgeCore

/// A clock that stands still until a test moves it: give it to a store (`KVExpiry(clock:)`) and a value's lifetime
/// ends when the test says so, never because the machine was slow.
///
/// ```swift
/// let clock = ManualExpiryClock()
/// let store = InMemoryKVStore(expiry: KVExpiry(clock: clock))
/// try store.set(SessionKeys.token, value: "t0k3n", expiresAfter: .seconds(60))
/// clock.advance(by: .seconds(60))
/// #expect(store.get(SessionKeys.token) == nil)
/// ```
///
/// Work that sleeps on it (an `ExpiryReaper`, a stream waiting for a value to expire) wakes when ``advance(by:)``
/// or ``set(to:)`` reaches the time it waits for.
public final class ManualExpiryClock: ExpiryClock {
    /// The time, and the sleepers waiting for a later one.
    private let state: LockedState<State>

    /// A clock that reads `start`; defaults to 2026-01-01 00:00:00 UTC, so that tests print the same dates on every
    /// run.
    public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        self.state = LockedState(State(now: start))
    }

    /// The time the clock reads.
    public var now: Date {
        state.withLock { $0.now }
    }

    /// How many tasks are sleeping on the clock: a test awaits a sleeper before it moves the clock past its time.
    public var sleeperCount: Int {
        state.withLock { $0.sleepers.count }
    }

    /// Moves the clock forward by `duration`, and wakes the sleepers whose time has come.
    public func advance(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let interval = TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
        set(to: now.addingTimeInterval(max(0, interval)))
    }

    /// Sets the clock to `date` (never back), and wakes the sleepers whose time has come.
    public func set(to date: Date) {
        let woken = state.withLock { state in
            state.now = max(state.now, date)
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    /// Returns once the clock reads `date` or later; throws `CancellationError` when the task is cancelled first.
    public func sleep(until date: Date) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.now >= date { return true }
                    if state.cancelled.remove(id) != nil { return true }
                    state.sleepers[id] = Sleeper(deadline: date, continuation: continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { state in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return Sleeper?.none
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    /// The clock's time and sleepers.
    private struct State {
        var now: Date
        var sleepers: [Int: Sleeper] = [:]
        /// Sleepers cancelled before they were registered.
        var cancelled: Set<Int> = []
        var nextID = 0
    }

    /// A task waiting for a time.
    private struct Sleeper {
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }
}
