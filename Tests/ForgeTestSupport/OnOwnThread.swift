import Foundation

/// Runs `body` on a thread of its own and awaits its result without holding a thread of Swift concurrency's
/// pool.
///
/// Swift Testing runs tests in parallel on that pool, which has as many threads as the machine has cores. A
/// test that blocks one (waiting for a child process, a pause that picks a moment to kill one) stalls every
/// other test behind it, and their reported times grow by the wait. Blocking work goes here instead.
/// `body` must not record issues (`#expect`): they belong to the test's task, so return what to check.
public func onOwnThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
