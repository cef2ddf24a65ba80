#if FORGE_SYSTEM_FAULTS
internal import Foundation

// The fault sweep's side of `systemCall` (SystemCall.swift): compiled into debug builds only (`FORGE_SYSTEM_FAULTS`, set
// by Package.swift for the debug configuration), so that a release build makes its calls with nothing in between.

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
        /// Each call counted, with the path it was made on, in order.
        var records: [(call: SystemCall, path: String)] = []

        /// The record of the call that got the fault; nil while fewer calls than `target` were made.
        func faulted(_ target: Int?) -> (call: SystemCall, path: String)? {
            guard let target, records.count >= target else { return nil }
            return records[target - 1]
        }
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
        state.withLock { $0.records.map(\.call) }
    }

    /// The paths the calls were made on, in the order of ``calls``.
    package var paths: [String] {
        state.withLock { $0.records.map(\.path) }
    }

    /// The call that got the fault; nil while fewer calls than ``target`` were made.
    package var faultedCall: SystemCall? {
        state.withLock { $0.faulted(target)?.call }
    }

    /// The path of the call that got the fault; nil until it is made.
    package var faultedPath: String? {
        state.withLock { $0.faulted(target)?.path }
    }

    /// Whether a call on `path` counts.
    func covers(_ path: String) -> Bool {
        path.hasPrefix(prefix) || path == folder
    }

    /// Counts `call` on `path`, and returns the fault it gets, if any.
    func record(_ call: SystemCall, on path: String) -> SystemFault? {
        state.withLock { state in
            state.records.append((call, path))
            return state.records.count == target ? fault : nil
        }
    }
}
#endif
