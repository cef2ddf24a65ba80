internal import NIOConcurrencyHelpers

/// Runs a store's one-time preparation once, for every caller at once: the first call starts it and the others
/// await the same task; a failed one is started again by the next call.
final class Preparation: Sendable {
    /// The preparation that ran or runs, nil before the first call and after a failure.
    private let task = NIOLockedValueBox<Task<Void, any Error>?>(nil)
    /// Whether a preparation succeeded: every later call returns at once, without awaiting its task (which would
    /// suspend the caller until another task resumes it, a thread hop per store call).
    private let succeeded = NIOLockedValueBox(false)

    /// Awaits the preparation, starting it with `work` when none has succeeded or is running.
    ///
    /// - Throws: What `work` threw, to every caller that awaited that run.
    func run(_ work: @escaping @Sendable () async throws -> Void) async throws {
        if succeeded.withLockedValue({ $0 }) { return }
        let current = task.withLockedValue { task in
            if let task { return task }
            let started = Task { try await work() }
            task = started
            return started
        }
        do {
            try await Self.value(of: current)
            succeeded.withLockedValue { $0 = true }
        } catch is CancellationError {
            // This caller gave up; the preparation goes on for the others.
            throw CancellationError()
        } catch {
            task.withLockedValue { task in
                if task == current { task = nil }
            }
            throw error
        }
    }
}

extension Preparation {
    /// Awaits `task`, or throws `CancellationError` as soon as the caller is cancelled: awaiting a task's value alone
    /// would wait for the task however long its connection takes.
    private static func value(of task: Task<Void, any Error>) async throws {
        let waiter = Waiter()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard waiter.wait(continuation) else { return continuation.resume(throwing: CancellationError()) }
                Task { waiter.finish(with: await task.result) }
            }
        } onCancel: {
            waiter.cancel()
        }
    }

    /// One caller's wait: resumed once, by the preparation's end or by the caller's cancellation.
    private final class Waiter: Sendable {
        private let state = NIOLockedValueBox<(continuation: CheckedContinuation<Void, any Error>?, isCancelled: Bool)>(
            (nil, false)
        )

        /// Keeps `continuation` to resume; false when the caller was cancelled already.
        func wait(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
            state.withLockedValue { state in
                guard !state.isCancelled else { return false }
                state.continuation = continuation
                return true
            }
        }

        /// Resumes the caller with the preparation's result, unless it was resumed already.
        func finish(with result: Result<Void, any Error>) {
            take()?.resume(with: result)
        }

        /// Resumes the caller with `CancellationError`, unless it was resumed already.
        func cancel() {
            state.withLockedValue { $0.isCancelled = true }
            take()?.resume(throwing: CancellationError())
        }

        private func take() -> CheckedContinuation<Void, any Error>? {
            state.withLockedValue { state in
                defer { state.continuation = nil }
                return state.continuation
            }
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
    private let state = NIOLockedValueBox(State.waiting)

    /// Records that the connection came; false when the call already gave up.
    func markLeased() -> Bool {
        state.withLockedValue { state in
            guard state == .waiting else { return state == .leased }
            state = .leased
            return true
        }
    }

    /// Records that the wait ran out; false when the connection came first.
    func giveUpUnlessLeased() -> Bool {
        state.withLockedValue { state in
            guard state == .waiting else { return state == .gaveUp }
            state = .gaveUp
            return true
        }
    }
}
