#if DEBUG
import ForgeCore
import Foundation

/// Kills a process running the operation right after each of its calls in turn (`SIGKILL`, from the seam), and
/// checks the folder as the next process finds it: the old contents or the new ones, whole; what the dead process
/// left (temporary files, a renamed folder) removed once a store is opened on the folder; no lock held; and a next
/// write that works.
struct CrashPoints {
    let operation: SweptOperation
    /// The calls the operation made on a run without faults.
    let calls: Int
    /// The contents before and after the operation, from that run.
    let before: Sweep.Contents
    let after: Sweep.Contents

    /// What the crash points of an operation found.
    struct Report {
        var points = 0
        var statesChecked = 0
        var violations: [String] = []
    }

    /// Crashes a child after each call in turn.
    func run() async -> Report {
        var report = Report()
        for target in 1...max(calls, 1) {
            do {
                if try await crash(after: target) { report.points += 1 }
                report.statesChecked += 2
            } catch {
                report.violations.append("crash after call \(target): \(error)")
            }
        }
        return report
    }

    /// Runs a child that dies right after call `target`, then checks the folder; false when the child made fewer
    /// calls and ended by itself.
    private func crash(after target: Int) async throws -> Bool {
        try await Sweep.withFolder { folder in
            try await operation.seed(folder)
            let child = try Self.runChild(["crash", operation.name, String(target), folder.path])
            let killed = child.terminationReason == .uncaughtSignal && child.terminationStatus == SIGKILL
            guard killed || child.terminationStatus == 0 else {
                throw SweepViolation("the child ended with status \(child.terminationStatus)")
            }
            // The next process opens a store on the folder, which removes what the dead one left; then this one reads.
            let next = try Self.runChild(["open", operation.name, folder.path])
            guard next.terminationStatus == 0 else {
                throw SweepViolation("the next process could not open the store (status \(next.terminationStatus))")
            }
            let store = try await operation.open(folder)
            let reread = try await Sweep.contents(of: folder, operation)
            let partlyRemoved = operation.isPartlyRemoved(reread.values, before: before.values, after: after.values)
            guard [before.values, after.values].contains(reread.values) || partlyRemoved else {
                throw SweepViolation(
                    "the next process reads \(Sweep.difference(reread.values, from: before.values, after.values))"
                )
            }
            if !killed && reread.values != after.values {
                throw SweepViolation("the child ended without its crash, and the operation did not happen")
            }
            let leftovers = Sweep.temporaryNames(in: operation.watched(folder))
            guard leftovers.isEmpty else { throw SweepViolation("left after a store opened: \(leftovers)") }
            if let locked = Sweep.lockedEntry(in: operation.watched(folder)) {
                throw SweepViolation("\(locked) left locked")
            }
            do {
                try await store.next()
            } catch {
                throw SweepViolation("the next call failed: \(error)")
            }
            return killed
        }
    }

    /// Runs this executable with `arguments` to its end.
    private static func runChild(_ arguments: [String]) throws -> Process {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = arguments
        try child.run()
        child.waitUntilExit()
        return child
    }

    /// The next process: `<operation> <folder>`: opens the operation's store on the folder, as an app's next start
    /// would, and exits once the store has removed what dead processes left.
    static func nextProcess(_ arguments: [String]) async {
        guard arguments.count == 2, let operation = Operations.all.first(where: { $0.name == arguments[0] }) else {
            exit(2)
        }
        do {
            _ = try await operation.open(URL(fileURLWithPath: arguments[1], isDirectory: true))
            await StoreFolder.leftoverSweepsFinished()
        } catch {
            FileHandle.standardError.write(Data("ForgeFaultSweep open: \(error)\n".utf8))
            exit(3)
        }
        exit(0)
    }

    /// The child: `<operation> <call> <folder>`: opens the store on the seeded folder and runs the operation, killed
    /// right after call number `<call>`; exits 0 when it made fewer calls, 3 when the operation failed.
    static func child(_ arguments: [String]) async {
        guard arguments.count == 3, let target = Int(arguments[1]),
            let operation = Operations.all.first(where: { $0.name == arguments[0] })
        else { exit(2) }
        let folder = URL(fileURLWithPath: arguments[2], isDirectory: true)
        do {
            let store = try await operation.open(folder)
            let plan = SystemFaultPlan(folder: operation.watched(folder).path, faulting: target, with: .crash)
            try await SystemFaults.run(plan) { try await store.run() }
        } catch {
            FileHandle.standardError.write(Data("ForgeFaultSweep crash: \(error)\n".utf8))
            exit(3)
        }
        exit(0)
    }
}
#endif
