internal import Dispatch
internal import Foundation

/// A thread of its own that tasks can prefer to run on: how the file checks call a store from four real threads
/// at once.
///
/// The store's calls are `async`, so `DispatchQueue.concurrentPerform` cannot make them; a task that prefers this
/// executor runs on the serial queue's own thread instead of the cooperative pool, which may be one or two threads
/// wide. Four of them call a store in parallel, as four threads of an app do.
final class FileCheckThread: TaskExecutor {
    /// The serial queue whose thread runs the jobs.
    private let queue: DispatchQueue

    /// Creates a thread named `label`.
    init(label: String) {
        self.queue = DispatchQueue(label: label)
    }

    /// Runs `job` on this executor's thread.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Runs `body(index, barrier)` for each index of `0..<count`, each on a thread of its own, all at once, and
    /// returns when all have returned.
    ///
    /// The bodies start together; a body that waits at `barrier` waits until every body has, so rounds of calls
    /// meet head-on rather than one thread running ahead of the others.
    ///
    /// - Throws: The first error a body throws.
    static func run(
        _ count: Int,
        _ body: @escaping @Sendable (_ index: Int, _ barrier: Barrier) async throws -> Void
    ) async throws {
        let barrier = Barrier(count: count)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                let thread = FileCheckThread(label: "ForgeStorageTesting.FileCheckThread.\(index)")
                group.addTask(executorPreference: thread) {
                    barrier.wait()
                    // A body that throws or returns early stops waiting at the barrier, and frees the others.
                    defer { barrier.leave() }
                    try await body(index, barrier)
                }
            }
            try await group.waitForAll()
        }
    }

    /// Where the threads of a check wait for each other: each ``wait()`` returns once every thread still running
    /// has called it.
    final class Barrier: @unchecked Sendable {
        // Safe to share: `waiting`, `running` and `round` are read and written only while `condition` is locked.
        private let condition = NSCondition()
        private var running: Int
        private var waiting = 0
        private var round = 0

        init(count: Int) {
            self.running = count
        }

        /// Waits until every running thread has called `wait()`.
        func wait() {
            condition.lock()
            defer { condition.unlock() }
            waiting += 1
            if waiting >= running {
                openRound()
                return
            }
            let current = round
            while round == current { condition.wait() }
        }

        /// Takes a thread that is done out of the count, so the others no longer wait for it.
        func leave() {
            condition.lock()
            defer { condition.unlock() }
            running -= 1
            if waiting > 0 && waiting >= running { openRound() }
        }

        private func openRound() {
            waiting = 0
            round += 1
            condition.broadcast()
        }
    }
}
