internal import Synchronization

/// Runs a store's one-time preparation once, for every caller at once: the first call starts it and the others
/// await the same task; a failed one is started again by the next call.
final class Preparation: Sendable {
    /// The preparation that ran or runs, nil before the first call and after a failure.
    private let task = Mutex<Task<Void, any Error>?>(nil)

    /// Awaits the preparation, starting it with `work` when none has succeeded or is running.
    ///
    /// - Throws: What `work` threw, to every caller that awaited that run.
    func run(_ work: @escaping @Sendable () async throws -> Void) async throws {
        let current = task.withLock { task in
            if let task { return task }
            let started = Task { try await work() }
            task = started
            return started
        }
        do {
            try await current.value
        } catch {
            task.withLock { task in
                if task == current { task = nil }
            }
            throw error
        }
    }
}

/// Whether a call got its connection before its wait ran out, decided once: whichever of the two comes first wins,
/// so a statement never starts after its call reported that it waited in vain.
final class LeaseFlag: Sendable {
    /// The decision.
    private enum State {
        case waiting
        case leased
        case gaveUp
    }

    /// The decision so far.
    private let state = Mutex(State.waiting)

    /// Records that the connection came; false when the call already gave up.
    func markLeased() -> Bool {
        state.withLock { state in
            guard state == .waiting else { return state == .leased }
            state = .leased
            return true
        }
    }

    /// Records that the wait ran out; false when the connection came first.
    func giveUpUnlessLeased() -> Bool {
        state.withLock { state in
            guard state == .waiting else { return state == .gaveUp }
            state = .gaveUp
            return true
        }
    }
}
