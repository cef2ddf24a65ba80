internal import Dispatch
internal import ForgeCore
internal import Foundation

/// Runs calls on several threads at once, for the concurrency checks of ``KVStoringConformance`` and
/// ``CryptStoringConformance`` (whose calls are synchronous).
///
/// The threads are real threads of their own (not tasks, and not a pool that may run them one after another on a
/// busy machine), and each waits at a starting line until all have started, so their calls overlap even when the
/// store is fast: a race shows in nearly every run, not by chance.
enum ConformanceThreads {
    /// How long a thread waits at the starting line for the others before it starts alone.
    static let startingLineTimeout: Duration = .seconds(1)

    /// Runs `body` once on each of `count` new threads at once, passing the thread's number, from 0, and returns
    /// when all have finished.
    ///
    /// - Returns: What each thread threw, described, in no particular order; empty when none threw.
    static func run(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) async -> [String] {
        let started = LockedState(0)
        let failures = LockedState<[String]>([])
        let finished = DispatchGroup()
        for thread in 0..<count {
            finished.enter()
            let worker = Thread {
                defer { finished.leave() }
                started.withLock { $0 += 1 }
                let clock = ContinuousClock()
                let deadline = clock.now.advanced(by: startingLineTimeout)
                while started.withLock({ $0 }) < count, clock.now < deadline {
                    Thread.sleep(forTimeInterval: 0.000_1)
                }
                do {
                    try body(thread)
                } catch {
                    failures.withLock { $0.append("thread \(thread): \(error)") }
                }
            }
            worker.start()
        }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            finished.notify(queue: .global()) { done.resume() }
        }
        return failures.withLock { $0 }
    }
}
