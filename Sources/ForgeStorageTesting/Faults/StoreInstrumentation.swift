internal import ForgeCore

/// The hook an instrumented in-memory store calls once per operation: it takes the fault to inject, if
/// any, and logs the call.
struct StoreInstrumentation: StoreInstrument {
    let label: String
    let faults: StoreFaults?
    let log: OperationLog?

    /// The hook for a store labelled `label`, or nil when there is nothing to hook, so a store made with
    /// neither faults nor a log stays a plain store.
    static func make(label: String, faults: StoreFaults?, log: OperationLog?) -> StoreInstrumentation? {
        faults == nil && log == nil ? nil : StoreInstrumentation(label: label, faults: faults, log: log)
    }

    func begin(_ operation: StoreOperation, target: String?) -> StoreFailure? {
        let failure = faults?.take(operation, target: target)
        log?.append(LoggedOperation(operation, target, in: label, failed: failure != nil))
        return failure
    }
}
