#if FORGE_SYSTEM_FAULTS
internal import Foundation

// The fault sweep's side of `systemCall`: compiled into debug builds only (`FORGE_SYSTEM_FAULTS`, set by
// Package.swift for the debug configuration), so that a release build makes its calls with nothing in between.

/// What a fault sweep does to the call its plan names.
package enum SystemFault: Sendable, Hashable {
    /// The call is not made; it returns its failure with `errno` set to `code`.
    case fail(errno: Int32)
    /// A `read` or `write` moves half the bytes asked for (any other call is made as it is).
    case short
    /// The call is made, then the process is killed (`SIGKILL`): a crash right after it.
    case crash
}

/// One run of a fault sweep: the calls made on paths under ``folder`` are counted in order, and the ``target``-th
/// (from 1) gets ``fault``.
package final class SystemFaultPlan: Sendable {
    /// The folder whose calls count: calls on other paths (another test's folder) pass untouched.
    package let folder: String
    /// The number of the call to fault, from 1; nil to count only.
    package let target: Int?
    /// What happens to that call.
    package let fault: SystemFault?
    private let prefix: String
    private let state = LockedState(State())

    private struct State {
        var calls: [SystemCall] = []
        var paths: [String] = []
    }

    /// A plan that counts the calls on paths under `folder` and gives the `target`-th `fault`.
    package init(folder: String, faulting target: Int? = nil, with fault: SystemFault? = nil) {
        self.folder = folder
        self.target = target
        self.fault = fault
        self.prefix = folder.hasSuffix("/") ? folder : folder + "/"
    }

    /// The calls made under the folder while the plan was active, in order.
    package var calls: [SystemCall] {
        state.withLock { $0.calls }
    }

    /// The call that got the fault; nil while fewer calls than ``target`` were made.
    package var faultedCall: SystemCall? {
        state.withLock { state in
            guard let target, state.calls.count >= target else { return nil }
            return state.calls[target - 1]
        }
    }

    /// The paths the calls were made on, in the order of ``calls``.
    package var paths: [String] {
        state.withLock { $0.paths }
    }

    /// The path of the call that got the fault; nil until it is made.
    package var faultedPath: String? {
        state.withLock { state in
            guard let target, state.paths.count >= target else { return nil }
            return state.paths[target - 1]
        }
    }

    /// Whether a call on `path` counts.
    fileprivate func covers(_ path: String) -> Bool {
        path.hasPrefix(prefix) || path == folder
    }

    /// Counts `call` on `path`, and returns the fault it gets, if any.
    fileprivate func record(_ call: SystemCall, on path: String) -> SystemFault? {
        state.withLock { state in
            state.calls.append(call)
            state.paths.append(path)
            return state.calls.count == target ? fault : nil
        }
    }
}

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
