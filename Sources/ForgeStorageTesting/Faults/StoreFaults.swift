internal import ForgeCore

/// The faults an in-memory store injects: set them when you create the store, or at any point while the
/// test runs, from any task.
///
/// ```swift
/// let faults = StoreFaults()
/// let files = InMemoryFileStore(faults: faults)
///
/// faults.failNext(.write, at: "avatars/current.jpg", with: .outOfSpace)
/// await #expect(throws: FileStoreError.writeFailed(path: "avatars/current.jpg", reason: .outOfSpace)) {
///     try await files.save(avatar, to: "avatars/current.jpg")
/// }
/// ```
///
/// The first fault that matches an operation fails it (faults are tried in the order they were added), and
/// a fault with a count is spent one by one. One ``StoreFaults`` may serve several stores.
public final class StoreFaults: Sendable {
    private let state: LockedState<State>

    private struct State {
        var faults: [StoreFault]
        var injected = 0
    }

    /// Creates the faults, none by default.
    ///
    /// - Parameter faults: The faults to inject from the start.
    public init(_ faults: [StoreFault] = []) {
        self.state = LockedState(State(faults: faults))
    }

    /// The faults not yet spent, in the order they are tried.
    public var pending: [StoreFault] {
        state.withLock { $0.faults.filter { $0.remaining != 0 } }
    }

    /// How many operations the faults have failed so far.
    public var injectedCount: Int {
        state.withLock { $0.injected }
    }

    /// Adds `fault`, tried after the faults already there.
    ///
    /// - Parameter fault: The fault to inject.
    public func add(_ fault: StoreFault) {
        state.withLock { $0.faults.append(fault) }
    }

    /// Fails the next `count` of `operations` on `target` (every key or path when nil) with `failure`.
    ///
    /// - Parameters:
    ///   - operations: The operations that fail.
    ///   - count: How many operations fail; 1 by default.
    ///   - target: The key or path they fail for; nil for all.
    ///   - failure: How they fail.
    public func failNext(
        _ operations: StoreOperations,
        times count: Int = 1,
        at target: String? = nil,
        with failure: StoreFailure
    ) {
        add(.next(operations, times: count, at: target, with: failure))
    }

    /// Fails every one of `operations` on `target` (every key or path when nil) with `failure`, until
    /// ``removeAll()``.
    ///
    /// - Parameters:
    ///   - operations: The operations that fail.
    ///   - target: The key or path they fail for; nil for all.
    ///   - failure: How they fail.
    public func failAlways(_ operations: StoreOperations, at target: String? = nil, with failure: StoreFailure) {
        add(.always(operations, at: target, with: failure))
    }

    /// Removes every fault, so operations run again: a disk with space again, a device unlocked.
    public func removeAll() {
        state.withLock { $0.faults.removeAll() }
    }

    /// The failure for `operation` on `target`, spending one use of the fault that matched, or nil.
    func take(_ operation: StoreOperation, target: String?) -> StoreFailure? {
        state.withLock { state in
            guard let index = state.faults.firstIndex(where: { $0.matches(operation, target: target) }) else {
                return nil
            }
            let failure = state.faults[index].failure
            if let remaining = state.faults[index].remaining {
                // A spent fault is dropped, so faults added one by one over a long test do not pile up.
                if remaining <= 1 {
                    state.faults.remove(at: index)
                } else {
                    state.faults[index].remaining = remaining - 1
                }
            }
            state.injected += 1
            return failure
        }
    }
}
