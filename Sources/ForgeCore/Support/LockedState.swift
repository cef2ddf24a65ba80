internal import Foundation

/// A value guarded by one lock, shared by every store that keeps mutable state.
///
/// Hold the lock for as short as possible and never across I/O or an `await`:
/// read or replace the state inside ``withLock(_:)`` and do the work outside.
///
/// ```swift
/// let counter = LockedState(0)
/// counter.withLock { $0 += 1 }
/// ```
///
/// A `LockedState` is `Sendable` exactly when its state is, so the compiler still checks what is put in it.
package final class LockedState<State> {
    /// The guarded value; read and written only while ``lock`` is held.
    private var state: State
    /// The lock that guards ``state``.
    private let lock = NSLock()

    /// Creates the guarded value.
    package init(_ initialState: State) {
        self.state = initialState
    }

    /// Runs `body` with exclusive access to the state and returns its result.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    /// Runs `body` with exclusive access to the state, and puts the state back as it was when `body` throws: a change
    /// of several steps that all happen or none do (an in-memory store's part of a transaction).
    package func withLockUndoingOnFailure<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try withLock { state in
            let before = state
            do {
                return try body(&state)
            } catch {
                state = before
                throw error
            }
        }
    }
}

// Safe to share across tasks: `state` is private and only read or written inside `withLock`, while `lock` is
// held, and `State: Sendable` lets the state that goes in or comes out cross between them.
extension LockedState: @unchecked Sendable where State: Sendable {}
