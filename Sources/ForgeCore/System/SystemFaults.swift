#if FORGE_SYSTEM_FAULTS
internal import Foundation

// The fault sweep's side of `systemCall` (SystemCall.swift): compiled into debug builds only (`FORGE_SYSTEM_FAULTS`, set
// by Package.swift for the debug configuration), so that a release build makes its calls with nothing in between.

/// The plan of the fault sweep running now, which ``systemCall(_:on:_:)`` consults.
package enum SystemFaults {
    private static let active = LockedState<SystemFaultPlan?>(nil)

    /// Runs `body` with `plan` active: one plan at a time.
    package static func run<Result>(_ plan: SystemFaultPlan, _ body: () throws -> Result) rethrows -> Result {
        activate(plan)
        defer { active.withLock { $0 = nil } }
        return try body()
    }

    /// Runs `body` with `plan` active: one plan at a time.
    package static func run<Result>(
        _ plan: SystemFaultPlan,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        activate(plan)
        defer { active.withLock { $0 = nil } }
        return try await body()
    }

    /// How many calls the active plan has counted; nil while none is active: for a sweep that tells which calls an
    /// operation's phases made.
    package static var callsCounted: Int? {
        active.withLock { $0 }?.calls.count
    }

    private static func activate(_ plan: SystemFaultPlan) {
        active.withLock { current in
            precondition(current == nil, "one fault plan at a time")
            current = plan
        }
    }

    /// Counts `call` on `path` when the active plan covers it, and returns the fault it gets, if any.
    private static func fault(for call: SystemCall, on path: () -> String) -> SystemFault? {
        guard let plan = active.withLock({ $0 }) else { return nil }
        let path = path()
        return plan.covers(path) ? plan.record(call, on: path) : nil
    }

    /// Makes `call` through `body`, or returns `failure` with `errno` set, as the active plan says.
    static func make<Result>(
        _ call: SystemCall,
        on path: () -> String,
        failing failure: Result,
        _ body: () -> Result
    ) -> Result {
        switch fault(for: call, on: path) {
        case nil, .short?:
            return body()
        case .fail(let code)?:
            // A `close` that fails has released its descriptor all the same (Linux, and POSIX for `EIO`).
            if call == .close || call == .release { _ = body() }
            errno = code
            return failure
        case .crash?:
            _ = body()
            crash()
        }
    }

    /// Makes the `read` or `write` `call` of `count` bytes through `body`, or cuts it short, or fails it, as the active
    /// plan says.
    static func make(_ call: SystemCall, on path: () -> String, count: Int, _ body: (Int) -> Int) -> Int {
        switch fault(for: call, on: path) {
        case nil:
            return body(count)
        case .short?:
            return body(count > 1 ? count / 2 : count)
        case .fail(let code)?:
            errno = code
            return -1
        case .crash?:
            _ = body(count)
            crash()
        }
    }

    /// Ends the process at once, as a crash does: no buffer is flushed, no lock released but by the kernel.
    private static func crash() -> Never {
        kill(getpid(), SIGKILL)
        // SIGKILL cannot be caught: the process is gone before this line.
        fatalError("the process survived SIGKILL")
    }
}
#endif
