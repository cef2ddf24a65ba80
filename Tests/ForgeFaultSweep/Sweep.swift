#if DEBUG
import ForgeCore
import ForgeCrypt
import ForgeFileStore
import ForgeKVStore
import Foundation

/// Fails each system call of an operation in turn, with each fault that call can meet, and checks what the store
/// promises after each: a typed error naming the key or path with the fault's reason (or success, for a fault that is
/// retried), the old contents or the new ones, whole, on the instance and on a new one; no temporary file, lock or
/// descriptor left; and a next call on the same instance that works.
struct Sweep {
    /// The operation swept.
    let operation: SweptOperation
    /// The calls the operation makes, counted on a run without faults.
    private(set) var calls: [SystemCall] = []
    /// The contents before the operation and after it, from that run.
    private(set) var before = Contents()
    private(set) var after = Contents()

    /// What a store shows and what its folder holds.
    struct Contents: Equatable {
        /// The keys or paths an instance shows, with their values as text.
        var values: [String: String] = [:]
        /// The folder's files and folders, but temporary ones.
        var entries: [String] = []
    }

    /// What one sweep of an operation found.
    struct Report {
        var calls = 0
        var faults = 0
        var succeeded = 0
        var statesChecked = 0
        var violations: [String] = []
    }

    init(_ operation: SweptOperation) {
        self.operation = operation
    }

    /// Runs the operation once without faults: its calls, and the contents before and after it.
    mutating func count() async throws {
        let operation = operation
        var calls: [SystemCall] = []
        var contents = (Contents(), Contents())
        try await Self.withFolder { folder in
            try await operation.seed(folder)
            let store = try await operation.open(folder)
            let before = try await Self.contents(of: folder, operation)
            let plan = SystemFaultPlan(folder: operation.watched(folder).path)
            try await SystemFaults.run(plan) { try await store.run() }
            calls = plan.calls
            if operation.name == "vault.rotate" {
                // Printed only: which calls of the table's row each phase made.
                let phases = VaultOperations.phases.take()
                let described = phases.enumerated()
                    .map { index, phase in
                        let end = index + 1 < phases.count ? phases[index + 1].start : plan.calls.count
                        return "\(phase.phase) calls \(phase.start + 1)-\(end)"
                    }
                let opening = phases.first.map { $0.start > 0 ? ["opening calls 1-\($0.start)"] : [] } ?? []
                print("    phases: " + (opening + described).joined(separator: ", "))
            }
            if ProcessInfo.processInfo.environment["SWEEP_DEBUG"] != nil {
                for (index, call) in plan.calls.enumerated() {
                    print("  \(index + 1) \(call.rawValue) \(plan.paths[index].dropFirst(folder.path.count))")
                }
            }
            contents = (before, try await Self.contents(of: folder, operation))
        }
        guard contents.0.values != contents.1.values || contents.0.entries != contents.1.entries else {
            throw SweepViolation("\(operation.name): the operation changed nothing the sweep can see")
        }
        self.calls = calls
        (before, after) = contents
    }

    /// Fails every call in turn with each of its faults.
    func run() async -> Report {
        var report = Report(calls: calls.count)
        for (index, call) in calls.enumerated() {
            for fault in call.faults {
                report.faults += 1
                do {
                    let outcome = try await runFaulting(index + 1, with: fault)
                    report.statesChecked += outcome.statesChecked
                    if outcome.succeeded { report.succeeded += 1 }
                } catch {
                    report.violations.append("call \(index + 1) (\(call.rawValue)) \(fault.label): \(error)")
                }
            }
        }
        return report
    }

    /// Runs the operation with the `target`-th call given `fault`, and checks everything after it.
    private func runFaulting(_ target: Int, with fault: SystemFault) async throws -> (
        succeeded: Bool, statesChecked: Int
    ) {
        let operation = operation
        return try await Self.withFolder { folder in
            try await operation.seed(folder)
            let store = try await operation.open(folder)
            let descriptors = Self.openDescriptorCount()
            let plan = SystemFaultPlan(folder: operation.watched(folder).path, faulting: target, with: fault)
            var failure: (any Error)?
            do {
                try await SystemFaults.run(plan) { try await store.run() }
            } catch {
                failure = error
            }
            guard plan.faultedCall != nil else {
                throw SweepViolation("the run made fewer than \(target) calls")
            }
            if let failure {
                if fault.mustBeRetried(on: plan.faultedCall) {
                    throw SweepViolation("a fault the store makes the call again for failed the operation: \(failure)")
                }
                try check(failure, for: fault, on: plan.faultedCall)
            } else if [.sync, .close, .setPermissions].contains(plan.faultedCall), !fault.isRetried,
                !operation.advisoryFiles.contains(plan.faultedPath.map { ($0 as NSString).lastPathComponent } ?? "")
            {
                // A flush the device refused, a file whose close reported a lost write, a file left with the wrong
                // permissions: a success would promise what did not happen.
                throw SweepViolation("the operation succeeded")
            }
            // What the instance shows, what a new instance reads, and the folder itself: old or new, whole.
            let seen = try await store.contents()
            let reread = try await Self.contents(of: folder, operation)
            let expected = failure == nil ? [after] : [before, after]
            guard expected.contains(where: { $0.values == seen }) || isPartlyRemoved(seen, after: failure) else {
                throw SweepViolation(
                    "the instance shows \(Self.difference(seen, from: before.values, after.values))"
                        + (ProcessInfo.processInfo.environment["SWEEP_DEBUG"] != nil
                            ? " seen \(seen) before \(before.values) after \(after.values) failure \(String(describing: failure))"
                            : "")
                )
            }
            let known = Set(before.entries).union(after.entries)
            // The folder's names: none but those of the old contents or the new (a vault's, whose names are new in each
            // run, by their count); not compared for an operation that leaves its work to be finished.
            let entriesExpected =
                if operation.resumes {
                    true
                } else if operation.namesAreStable {
                    known.isSuperset(of: reread.entries)
                } else {
                    [before.entries.count, after.entries.count].contains(reread.entries.count)
                        || (operation.removesPart && reread.entries.count <= before.entries.count)
                }
            guard
                expected.contains(where: { $0.values == reread.values })
                    || isPartlyRemoved(reread.values, after: failure),
                entriesExpected
            else {
                throw SweepViolation(
                    "a new instance reads \(Self.difference(reread.values, from: before.values, after.values))"
                        + "; the folder holds \(Set(reread.entries).subtracting(known).sorted()) besides"
                )
            }
            // A temporary whose removal the system refused (its `unlinkat`, or the status, open or listing of it that
            // its removal makes) stays, for a later process to remove as an orphan; no other fault may leave one.
            let watched = operation.watched(folder)
            let leftovers = Self.temporaryNames(in: watched)
            let refusedRemoval = { (leftover: String) -> Bool in
                let path = watched.appendingPathComponent(leftover).path
                guard let faulted = plan.faultedPath, [.remove, .status, .list, .open].contains(plan.faultedCall) else {
                    return false
                }
                return faulted == path || faulted.hasPrefix(path + "/")
            }
            guard leftovers.allSatisfy(refusedRemoval) else {
                throw SweepViolation("temporary files left: \(leftovers)")
            }
            let open = Self.openDescriptorCount()
            guard open <= descriptors else {
                throw SweepViolation("\(open - descriptors) descriptors left open")
            }
            if let locked = Self.lockedEntry(in: watched) { throw SweepViolation("\(locked) left locked") }
            do {
                try await store.next()
            } catch {
                throw SweepViolation("the next call on the instance failed: \(error)")
            }
            try await operation.promise?(folder)
            return (failure == nil, 3)
        }
    }

    /// Whether `seen`, after a run that failed, is what an operation that removes part of the contents may leave:
    /// values as they were before or as the run made them, some missing.
    private func isPartlyRemoved(_ seen: [String: String], after failure: (any Error)?) -> Bool {
        failure != nil && operation.isPartlyRemoved(seen, before: before.values, after: after.values)
    }

    /// Checks that `error` is the store's typed error, naming the operation's key or path, with `fault`'s reason (made
    /// on `call`).
    private func check(_ error: any Error, for fault: SystemFault, on call: SystemCall?) throws {
        let named: (subject: String?, reason: FailureReason?)
        switch error {
        case CryptStoreError.rotationInProgress(let path) where call == .tryLock && fault == .fail(errno: EWOULDBLOCK):
            // The vault's writers take its folder's lock shared, without waiting: a lock held exclusively elsewhere is
            // a rotation of the master key under way, which the error says, naming the vault.
            guard path.hasSuffix(VaultOperations.namespace) else { throw SweepViolation("the error names \(path)") }
            return
        case let error as KVStoreError: named = (error.key, error.reason)
        case let error as FileStoreError: named = (error.path, error.reason)
        case CryptStoreError.openFailed(let path, let reason):
            // The vault's header, read before any item: the error names the vault.
            guard path.hasSuffix(VaultOperations.namespace) else { throw SweepViolation("the error names \(path)") }
            named = (operation.subject, reason)
        case let error as CryptStoreError: named = (error.key, error.reason)
        default: throw SweepViolation("threw \(type(of: error)), not the store's error: \(error)")
        }
        if let subject = operation.subject, named.subject != subject {
            throw SweepViolation("the error names \(named.subject ?? "nothing"), not \(subject): \(error)")
        }
        guard let expected = fault.reason else { return }
        switch (named.reason, expected) {
        case (.other?, .other): return
        case (let reason?, _) where reason == expected: return
        default: throw SweepViolation("the error's reason is not \(expected): \(error)")
        }
    }

    /// What a new instance of the operation's store reads in `folder`, and the names the folder holds.
    static func contents(of folder: URL, _ operation: SweptOperation) async throws -> Contents {
        let values: [String: String]
        if let read = operation.read {
            values = try await read(folder)
        } else {
            values = try await operation.open(folder).contents()
        }
        let entries = entries(in: folder).filter { !isTemporary($0) }
        return Contents(values: values, entries: entries)
    }

    /// Whether `path` is or lies in a temporary file or folder.
    static func isTemporary(_ path: String) -> Bool {
        path.split(separator: "/").contains { TemporaryName.isTemporary($0) }
    }

    /// A short account of how `seen` differs from the two states it may be.
    static func difference(
        _ seen: [String: String],
        from before: [String: String],
        _ after: [String: String]
    ) -> String {
        let keys = Set(seen.keys).union(before.keys).union(after.keys).sorted()
        let differing = keys.filter { seen[$0] != before[$0] && seen[$0] != after[$0] }
        let shown = differing.prefix(3).map { "\($0): \(seen[$0].map { String($0.prefix(40)) } ?? "missing")" }
        return "neither the old contents nor the new: " + shown.joined(separator: "; ")
    }

    /// Every file and folder under `folder`, as paths relative to it.
    static func entries(in folder: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return enumerator.compactMap { $0 as? String }.sorted()
    }

    /// The temporary files and folders a store left under `folder`.
    static func temporaryNames(in folder: URL) -> [String] {
        entries(in: folder).filter { TemporaryName.isTemporary($0.split(separator: "/").last ?? "") }
    }

    /// The first folder under `folder` (itself included), or lock file (`….lock`), that another open cannot lock
    /// exclusively at once.
    static func lockedEntry(in folder: URL) -> String? {
        let paths = [folder.path] + entries(in: folder).map { folder.appendingPathComponent($0).path }
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
            let descriptor =
                isFolder.boolValue
                ? try? Descriptor(opening: path, .folder)
                : path.hasSuffix(".lock") ? try? Descriptor(opening: path, .read) : nil
            if let descriptor, !descriptor.lock(exclusive: true, waits: false) { return path }
        }
        return nil
    }

    /// How many descriptors this process has open.
    static func openDescriptorCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }

    /// Runs `body` with a new, empty folder, removed afterwards.
    static func withFolder<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("forge-sweep-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }
}
#endif
