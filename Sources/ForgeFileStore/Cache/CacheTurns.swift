internal import ForgeCore

/// The order in which a ``BoundedFileStore``'s calls change its files: calls on one path take turns, in the order
/// they came, and a removal of every file takes its turn alone.
///
/// A cache's count of bytes is only as good as the order its changes land in. Two saves of one path, or a save and a
/// removal of it, that ran at once could land in another order than they were counted in; a removal of everything
/// could land before a save it was meant to follow. With turns, every change of a path lands in the order its turn
/// was taken, so what the cache counts is what the store holds.
///
/// A save that must remove another file to make room takes that file's turn while holding its own
/// (``takeNested(_:)``). Such a turn never waits behind a removal of everything that is waiting (which waits for the
/// save), and no cycle can form: a save only ever waits for a path that was not being saved when it chose it, whose
/// holder chose its own files later.
///
/// Waiting for a turn ignores cancellation: the calls that hold turns are single store calls, and a cache whose call
/// gave up its place in line could land its change in the wrong order.
package final class CacheTurns: Sendable {
    /// A call waiting for its turn.
    private struct Waiter {
        /// The path it waits for; nil for a removal of every file.
        var path: String?
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        /// The paths whose turn is taken.
        var held: Set<String> = []
        /// Whether a removal of every file has its turn.
        var everyFileHeld = false
        /// Top-level calls waiting, in the order they came.
        var queue: [Waiter] = []
        /// Turns of files to remove, taken by saves that hold a turn already: served before the queue.
        var nested: [Waiter] = []
        /// Test hooks waiting for this many waiters, in line or nested: see ``waitUntilQueued(_:)``.
        var queueWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// Gives turns to the waiters that may go now, and returns them to resume (outside the lock).
        mutating func grant() -> [CheckedContinuation<Void, Never>] {
            var ready: [CheckedContinuation<Void, Never>] = []
            nested.removeAll { waiter in
                guard let path = waiter.path, !held.contains(path) else { return false }
                held.insert(path)
                ready.append(waiter.continuation)
                return true
            }
            var stillWaiting: [Waiter] = []
            var waitingPaths: Set<String> = []
            var behindEveryFile = false
            for waiter in queue {
                // Nobody passes a waiting removal of every file, nor an earlier call on the same path.
                if let path = waiter.path {
                    if !behindEveryFile, !everyFileHeld, !waitingPaths.contains(path), !held.contains(path) {
                        held.insert(path)
                        ready.append(waiter.continuation)
                    } else {
                        waitingPaths.insert(path)
                        stillWaiting.append(waiter)
                    }
                } else if stillWaiting.isEmpty, held.isEmpty, !everyFileHeld {
                    everyFileHeld = true
                    ready.append(waiter.continuation)
                } else {
                    behindEveryFile = true
                    stillWaiting.append(waiter)
                }
            }
            queue = stillWaiting
            return ready
        }

        /// The test hooks whose awaited queue length is reached, to resume.
        mutating func watchersSatisfied() -> [CheckedContinuation<Void, Never>] {
            let length = queue.count + nested.count
            var satisfied: [CheckedContinuation<Void, Never>] = []
            queueWatchers.removeAll { watcher in
                guard length >= watcher.count else { return false }
                satisfied.append(watcher.continuation)
                return true
            }
            return satisfied
        }
    }

    private let state = LockedState(State())

    /// Waits for the turn of `path`, which the caller gives back with ``release(_:)``.
    nonisolated(nonsending) func take(_ path: String) async {
        let now = state.withLock { state in
            state.queue.isEmpty && !state.everyFileHeld && state.held.insert(path).inserted
        }
        if !now { await wait(path: path, nested: false) }
    }

    /// Waits for the turn of `path`, for a caller that holds the turn of another path: see the type's discussion.
    nonisolated(nonsending) func takeNested(_ path: String) async {
        if !state.withLock({ $0.held.insert(path).inserted }) {
            await wait(path: path, nested: true)
        }
    }

    /// Waits until no path's turn is taken, and takes the turn of every file; calls that come meanwhile wait for it.
    nonisolated(nonsending) func takeEveryFile() async {
        await wait(path: nil, nested: false)
    }

    /// Gives back the turn of `path`, or of every file when `path` is nil.
    func release(_ path: String?) {
        let ready = state.withLock { state in
            if let path { state.held.remove(path) } else { state.everyFileHeld = false }
            return state.grant()
        }
        for continuation in ready { continuation.resume() }
    }

    /// Waits until `count` calls wait for their turn, those in line and saves waiting to remove a file alike: a test's
    /// way to know a call it started is waiting.
    package func waitUntilQueued(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let satisfied = state.withLock { state in
                state.queueWatchers.append((count, continuation))
                return state.watchersSatisfied()
            }
            for watcher in satisfied { watcher.resume() }
        }
    }

    /// Waits in line for the turn of `path` (of every file when nil), among the nested turns when `nested`.
    private nonisolated(nonsending) func wait(path: String?, nested: Bool) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                let waiter = Waiter(path: path, continuation: continuation)
                if nested { state.nested.append(waiter) } else { state.queue.append(waiter) }
                let granted = state.grant()
                return granted + state.watchersSatisfied()
            }
            for continuation in ready { continuation.resume() }
        }
    }
}
