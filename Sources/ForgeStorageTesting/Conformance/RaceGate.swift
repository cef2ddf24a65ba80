internal import Dispatch
internal import ForgeCore

/// The point between two steps of a test store's call where a concurrency check makes a rival call: how the
/// checks catch a race in every run, rather than when the threads happen to meet in the window.
///
/// A store under test that makes one call in two steps (it checks for a file, then saves it; it copies its table,
/// then writes the copy back) calls ``betweenSteps()`` between them. Unarmed, the gate lets every call through at
/// once. A concurrency check whose subject has a gate arms it and starts one call on a thread of its own
/// (``interleave(_:with:)``): the first call to reach the gate parks there, the check makes its rival call (a read,
/// another save), and only then opens the gate and lets the parked call finish. The rival call so lands between
/// the two steps in every run, whatever the machine's load, and the check sees what it leaves behind. A store that
/// never reaches the gate (a correct store does each call in one step) finishes its call before the rival starts.
///
/// The package's mutation tests give one to the race mutants of the reference stores. A store must not hold a lock
/// that the rival call needs while it waits at the gate.
package final class RaceGate: Sendable {
    /// What the armed call did first.
    private enum Arrival: Sendable {
        /// It reached the gate, and waits there.
        case parked
        /// It finished without reaching the gate.
        case finished
    }

    /// The gate's state, changed under one lock.
    private struct State {
        /// Whether the next call to reach the gate parks there.
        var isArmed = false
        /// What the armed call did first, once it did it.
        var arrival: Arrival?
        /// The check waiting for the armed call to park or finish.
        var waiter: CheckedContinuation<Arrival, Never>?
    }

    private let state = LockedState(State())
    /// Signalled once to let the parked call go on.
    private let opening = DispatchSemaphore(value: 0)

    /// Creates an unarmed gate.
    package init() {}

    /// Called by a store between two steps of one call: returns at once, unless a check armed the gate, in which
    /// case the first call to reach it waits here until the check has made its rival call.
    package func betweenSteps() {
        let parks = state.withLock { state in
            guard state.isArmed else { return false }
            state.isArmed = false
            Self.arrive(.parked, in: &state)
            return true
        }
        if parks { opening.wait() }
    }

    /// Runs `call` on a thread of its own with the gate armed; once `call` waits at the gate (or finished without
    /// reaching it), runs `rival` on the current task, then lets `call` go on and waits for it.
    ///
    /// - Parameters:
    ///   - call: The call a racy store makes in two steps, such as a save.
    ///   - rival: The call to make between its steps, such as a read of what it saves.
    /// - Returns: What `call` and `rival` returned or threw.
    package func interleave<CallResult: Sendable, RivalResult>(
        _ call: @escaping @Sendable () async throws -> CallResult,
        with rival: () async throws -> RivalResult
    ) async -> (call: Result<CallResult, any Error>, rival: Result<RivalResult, any Error>) {
        state.withLock { $0 = State(isArmed: true) }
        let armedCall: @Sendable () async -> Result<CallResult, any Error> = {
            let result: Result<CallResult, any Error>
            do {
                result = .success(try await call())
            } catch {
                result = .failure(error)
            }
            self.state.withLock { Self.arrive(.finished, in: &$0) }
            return result
        }
        // On a thread of its own, since it blocks while parked; before task executors, on the pool, which is wider
        // than one thread on the Macs that run them.
        let calling: Task<Result<CallResult, any Error>, Never>
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            calling = Task(executorPreference: CheckThread(label: "ForgeStorageTesting.RaceGate")) { await armedCall() }
        } else {
            calling = Task.detached { await armedCall() }
        }
        let arrival = await withCheckedContinuation { (waiter: CheckedContinuation<Arrival, Never>) in
            state.withLock { state in
                if let arrival = state.arrival {
                    waiter.resume(returning: arrival)
                } else {
                    state.waiter = waiter
                }
            }
        }
        // A call that finished without parking leaves the gate armed: disarm it, so the rival passes.
        state.withLock { $0.isArmed = false }
        let rivalResult: Result<RivalResult, any Error>
        do {
            rivalResult = .success(try await rival())
        } catch {
            rivalResult = .failure(error)
        }
        if arrival == .parked { opening.signal() }
        return (await calling.value, rivalResult)
    }

    /// Records the armed call's first arrival, and wakes the check waiting for it.
    private static func arrive(_ arrival: Arrival, in state: inout State) {
        guard state.arrival == nil else { return }
        state.arrival = arrival
        state.waiter?.resume(returning: arrival)
        state.waiter = nil
    }
}
