internal import Dispatch
internal import Foundation

/// A thread of its own that tasks can prefer to run on: how the race checks call a store from four real threads at
/// once.
///
/// A file store's calls are `async`, so `DispatchQueue.concurrentPerform` cannot make them; a task that prefers this
/// executor runs on the serial queue's own thread instead of the cooperative pool, which may be one or two threads
/// wide. Four of them call a store in parallel, as four threads of an app do. Task executors came with macOS 15 and
/// its peers: before them, ``run(_:_:)`` runs its tasks on the cooperative pool, where calls overlap less often.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class CheckThread: TaskExecutor {
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
}

/// Runs calls on threads of their own (``CheckThread``) at once.
enum CheckThreads {
    /// Runs `body(index)` for each index of `0..<count`, each on a thread of its own, all at once, and returns when
    /// all have returned.
    ///
    /// The bodies start together, from a starting line every thread reaches first. Without task executors (before
    /// macOS 15 and its peers) they run on the cooperative pool instead, with no starting line, which would hold a
    /// pool narrower than `count` forever.
    ///
    /// - Throws: The first error a body throws.
    static func run(_ count: Int, _ body: @escaping @Sendable (_ index: Int) async throws -> Void) async throws {
        let startingLine = Barrier(count: count)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                    let thread = CheckThread(label: "ForgeStorageTesting.CheckThread.\(index)")
                    group.addTask(executorPreference: thread) {
                        startingLine.wait()
                        // A body that throws or returns early leaves the line, and frees the others.
                        defer { startingLine.leave() }
                        try await body(index)
                    }
                } else {
                    group.addTask { try await body(index) }
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
