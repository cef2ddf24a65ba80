import Dispatch
internal import ForgeCore

/// An actor that counts the jobs its executor is given, to tell whether an `await` left it.
///
/// A call that runs on its caller's executor (`nonisolated(nonsending)`) gives the executor no job; a call that runs
/// elsewhere gives it one when it resumes the caller. ``jobsEnqueued(during:)`` counts them, so a test can check
/// where a store's async operation ran without timing it:
///
/// ```swift
/// let caller = CallerActor()
/// let hops = try await caller.jobsEnqueued { try await store.load("small.bin") }
/// #expect(hops == 0)
/// ```
public actor CallerActor {
    /// The executor that runs the actor's jobs on a serial queue and counts them.
    private let executor = CountingExecutor()

    /// Creates an actor on an executor of its own that has counted no job yet.
    public init() {}

    /// The actor runs on the counting executor.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Runs `operation` on this actor and returns how many jobs the actor's executor was given meanwhile.
    public func jobsEnqueued(during operation: nonisolated(nonsending) () async throws -> Void) async rethrows -> Int {
        let before = executor.count
        try await operation()
        return executor.count - before
    }
}

/// A serial executor on a dispatch queue that counts the jobs it is given.
private final class CountingExecutor: SerialExecutor {
    /// The queue the jobs run on, one at a time.
    private let queue = DispatchQueue(label: "CallerActor")
    /// The number of jobs enqueued so far.
    private let enqueued = LockedState(0)

    /// The number of jobs enqueued so far.
    var count: Int { enqueued.withLock { $0 } }

    func enqueue(_ job: consuming ExecutorJob) {
        enqueued.withLock { $0 += 1 }
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
