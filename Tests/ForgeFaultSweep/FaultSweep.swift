import ForgeCore
import Foundation

/// The fault sweep: fails every system call of each disk-backed store's operations in turn, with every fault that
/// call can meet, and checks what the store promises after each (see ``Sweep``); then kills the process right after
/// each call (see ``CrashPoints``) and checks the folder a new process finds.
///
/// Usage: `ForgeFaultSweep [--only <operation>]` prints a line per operation and exits 1 when any check failed;
/// `ForgeFaultSweep crash <operation> <call> <folder>` is the child the crash points kill, and
/// `ForgeFaultSweep open <operation> <folder>` the next process, which opens the store after it.
@main
enum FaultSweep {
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "crash" {
            await CrashPoints.child(Array(arguments.dropFirst()))
            return
        }
        if arguments.first == "open" {
            await CrashPoints.nextProcess(Array(arguments.dropFirst()))
            return
        }
        var only: String?
        if arguments.first == "--only", arguments.count >= 2 {
            only = arguments[1]
            arguments.removeFirst(2)
        }
        let operations = Operations.all.filter { only == nil || $0.name == only }
        guard !operations.isEmpty, arguments.isEmpty else {
            print("usage: ForgeFaultSweep [--only <operation>]; operations: \(Operations.all.map(\.name))")
            exit(2)
        }
        var failed = false
        print("operation             calls  faults  succeeded  states  crash points  violations")
        for operation in operations {
            var sweep = Sweep(operation)
            do {
                try await sweep.count()
            } catch {
                print("\(operation.name): could not run without faults: \(error)")
                failed = true
                continue
            }
            let report = await sweep.run()
            let crashes = await CrashPoints(
                operation: operation,
                calls: sweep.calls.count,
                before: sweep.before,
                after: sweep.after
            )
            .run()
            let violations = report.violations + crashes.violations
            print(
                operation.name.padding(toLength: 20, withPad: " ", startingAt: 0),
                String(report.calls).leftPadded(7),
                String(report.faults).leftPadded(7),
                String(report.succeeded).leftPadded(10),
                String(report.statesChecked + crashes.statesChecked).leftPadded(7),
                String(crashes.points).leftPadded(13),
                String(violations.count).leftPadded(11)
            )
            for violation in violations.prefix(20) { print("    \(violation)") }
            if violations.count > 20 { print("    … and \(violations.count - 20) more") }
            failed = failed || !violations.isEmpty
        }
        exit(failed ? 1 : 0)
    }
}

extension String {
    /// The string with spaces before it, `width` characters in all.
    func leftPadded(_ width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}

/// Every operation the sweep fails.
enum Operations {
    static var all: [SweptOperation] {
        KeyValueOperations.all + FileOperations.all + VaultOperations.all
    }
}
