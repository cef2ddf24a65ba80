// The sweep fails calls through the seam only debug builds hold (ForgeCore's `FORGE_SYSTEM_FAULTS`): a release
// build of the package builds this target as a stub that says so.
#if DEBUG
import ForgeCore
import Foundation

/// The fault sweep: fails every system call of each disk-backed store's operations in turn, with every fault that
/// call can meet, and checks what the store promises after each (see ``Sweep``); then kills the process right after
/// each call (see ``CrashPoints``) and checks the folder a new process finds.
///
/// Usage: `ForgeFaultSweep [--only <operation>] [--output <file.md>]` prints a table row per operation (and writes the
/// table to the file) and exits 1 when any check failed; `ForgeFaultSweep crash <operation> <call> <folder>` is the
/// child the crash points kill, and `ForgeFaultSweep open <operation> <folder>` the next process, which opens the store
/// after it.
@main
enum FaultSweep {
    static func main() async {
        DefaultsOperations.runInOwnConfigurationFolder()
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
        var output: String?
        while arguments.count >= 2, arguments[0] == "--only" || arguments[0] == "--output" {
            if arguments[0] == "--only" { only = arguments[1] } else { output = arguments[1] }
            arguments.removeFirst(2)
        }
        let operations = Operations.all.filter { only == nil || $0.name == only }
        guard !operations.isEmpty, arguments.isEmpty else {
            print(
                "usage: ForgeFaultSweep [--only <operation>] [--output <file.md>]; operations: \(Operations.all.map(\.name))"
            )
            exit(2)
        }
        var failed = false
        var table = [
            "| operation | system calls | faults injected | runs that succeeded | states checked | crash points | violations |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        print(table.joined(separator: "\n"))
        var totals = [0, 0, 0, 0, 0, 0]
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
            let counts = [
                report.calls, report.faults, report.succeeded, report.statesChecked + crashes.statesChecked,
                crashes.points, violations.count,
            ]
            totals = zip(totals, counts).map(+)
            let row = "| `\(operation.name)` | " + counts.map(String.init).joined(separator: " | ") + " |"
            table.append(row)
            print(row)
            for violation in violations.prefix(20) { print("    \(violation)") }
            if violations.count > 20 { print("    … and \(violations.count - 20) more") }
            failed = failed || !violations.isEmpty
        }
        let total = "| all | " + totals.map(String.init).joined(separator: " | ") + " |"
        table.append(total)
        print(total)
        if let output {
            let text = """
                # The fault sweep

                Written by `swift run ForgeFaultSweep --output Tests/ForgeFaultSweep/Results/fault-sweep.md`: each
                system call of each operation failed in turn with each error it can return (and cut short, for `read` and
                `write`), then a crash right after each call; the Guarantees article quotes this table.

                \(table.joined(separator: "\n"))

                """
            do {
                try text.write(toFile: output, atomically: true, encoding: .utf8)
            } catch {
                print("could not write \(output): \(error)")
                failed = true
            }
        }
        exit(failed ? 1 : 0)
    }
}

/// Every operation the sweep fails.
enum Operations {
    static var all: [SweptOperation] {
        KeyValueOperations.all + FileOperations.all + VaultOperations.all + DefaultsOperations.all
    }
}
#else
import Foundation

/// The stub a release build makes: the sweep needs the seam of a debug build.
@main
enum FaultSweep {
    static func main() {
        FileHandle.standardError.write(Data("ForgeFaultSweep runs on a debug build: swift run ForgeFaultSweep\n".utf8))
        exit(2)
    }
}
#endif
