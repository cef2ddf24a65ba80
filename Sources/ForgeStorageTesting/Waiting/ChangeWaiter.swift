internal import ForgeCore

/// A one-shot wait for a value that something else delivers, limited in time and ended by cancellation.
///
/// Whoever comes first — the change (``deliver(_:)``), the deadline, or the waiting task's cancellation — ends the
/// wait; the continuation is resumed exactly once, under the lock, and later arrivals are ignored. A value delivered
/// before ``wait(for:within:)`` starts is kept and returned at once.
final class ChangeWaiter<Value: Sendable>: Sendable {
    /// Where the wait is.
    private enum State {
        /// Nothing delivered; the continuation of the wait, once it waits.
        case waiting(CheckedContinuation<Value, any Error>?)
        /// Delivered before anyone waited.
        case delivered(Value)
        /// The wait ended (or a delivery was already taken): nothing more is resumed.
        case ended
    }

    private let state = LockedState(State.waiting(nil))

    init() {}

    /// Hands `value` to the wait; the first delivery counts, later ones are ignored.
    func deliver(_ value: Value) {
        finish(with: .success(value))
    }

    /// Waits for the delivered value, at most `limit`; see ``withTimeLimit(awaiting:within:_:)``.
    ///
    /// - Throws: ``ChangeTimeout`` naming `awaited` when the limit passes first; `CancellationError` when the
    ///   waiting task is cancelled.
    func wait(for awaited: String, within limit: Duration) async throws -> Value {
        try await withTimeLimit(awaiting: awaited, within: limit) { try await self.delivery() }
    }

    /// The delivered value, awaited; ends with `CancellationError` when the task awaiting it is cancelled.
    private func delivery() async throws -> Value {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<Value, any Error>? in
                    switch state {
                    case .delivered(let value):
                        state = .ended
                        return .success(value)
                    case .ended:
                        return .failure(CancellationError())
                    case .waiting:
                        state = .waiting(continuation)
                        return nil
                    }
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            finish(with: .failure(CancellationError()))
        }
    }

    /// Resumes the waiting continuation with `result`, or keeps a value for a wait yet to start; once only.
    private func finish(with result: Result<Value, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            guard case .waiting(let continuation) = state else { return nil }
            if let continuation {
                state = .ended
                return continuation
            }
            // No one waits yet: keep a value for the wait, and let a cancellation end the wait before it starts.
            switch result {
            case .success(let value): state = .delivered(value)
            case .failure: state = .ended
            }
            return nil
        }
        waiter?.resume(with: result)
    }
}

/// What `operation` returns, unless `limit` passes first.
///
/// A task group races `operation` against a `Task.sleep(for:)` deadline; the loser is cancelled and the group waits
/// for it to end, so no task outlives the call, and a cancellation of the calling task ends both.
///
/// - Throws: ``ChangeTimeout`` naming `awaited` when the limit passes first; what `operation` throws;
///   `CancellationError` when the calling task is cancelled.
func withTimeLimit<Value: Sendable>(
    awaiting awaited: String,
    within limit: Duration,
    _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: Value.self) { group in
        group.addTask(operation: operation)
        group.addTask {
            try await Task.sleep(for: limit)
            throw ChangeTimeout(awaited: awaited, limit: limit, reason: .timeLimitReached)
        }
        defer { group.cancelAll() }
        // The first to finish decides: the value, the operation's error, the deadline or a cancellation.
        guard let first = try await group.next() else { throw CancellationError() }
        return first
    }
}
