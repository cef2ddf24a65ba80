/// The hook an in-memory store calls once per operation when a test asked for faults or an operation log.
///
/// A store made without one holds nil and pays a single nil check per call. ForgeStorageTesting provides
/// the only conformance: it appends the operation to the log and returns the fault to inject, if any.
package protocol StoreInstrument: Sendable {
    /// Records `operation` on `target` (a key or path, nil for the whole store) and returns the fault the
    /// store must fail it with, or nil to let it run.
    func begin(_ operation: StoreOperation, target: String?) -> StoreFailure?
}
