public import ForgeCrypt

extension InMemoryCrypt {
    /// Creates an empty store that fails operations as `faults` say and records every call in `log`.
    ///
    /// Without faults or a log, the store is a plain `InMemoryCrypt()`.
    ///
    /// - Parameters:
    ///   - label: The store's name in `log`, such as `"secrets"`.
    ///   - faults: The faults to inject; add to them at any time while the test runs.
    ///   - log: The log to record every call in, possibly shared with other stores.
    public convenience init(label: String = "secrets", faults: StoreFaults? = nil, log: OperationLog? = nil) {
        self.init(instrument: StoreInstrumentation.make(label: label, faults: faults, log: log))
    }
}
