extension StoreEvent {
    /// Why a call failed: the storage's reason when it gave one, a short name for the failure that metrics can count
    /// by, and the error itself (but for a secret store).
    ///
    /// ```swift
    /// if case .call(let call) = event.kind, case .failed(let failure) = call.outcome, failure.reason == .outOfSpace {
    ///     alertOperators()
    /// }
    /// ```
    public struct Failure: Sendable, CustomStringConvertible {
        /// The case of the store's error that the call threw (`"writeFailed"`, `"alreadyExists"`,
        /// `"tamperedItem"`), or the type of any other error (`"CancellationError"`): a short, stable name, few enough
        /// to count failures by.
        public let code: String
        /// Why the storage failed, when the error says (a full disk, a denied permission); nil for a failure that is
        /// not the storage's (`"alreadyExists"`, a damaged secret).
        public let reason: FailureReason?
        /// The error the call threw, as it is; nil for a secret store, whose errors name the key.
        ///
        /// A `KVStoreError`, a `FileStoreError`, or any error a store of your own throws.
        public let error: (any Error & Sendable)?
        /// A sentence for a log: the error's own description, which names the key or path; for a secret store, the
        /// ``code`` and the ``reason`` alone.
        public let description: String

        /// A failure named `code`, for the storage's `reason`, of `error`, told as `description`.
        package init(code: String, reason: FailureReason?, error: (any Error & Sendable)?, description: String) {
            self.code = code
            self.reason = reason
            self.error = error
            self.description = description
        }

        /// The failure of an error that is not the store's own: its type's name as the code, no reason.
        package init(foreign error: any Error, keepsError: Bool) {
            let code = String(describing: type(of: error))
            self.init(
                code: code,
                reason: nil,
                error: keepsError ? error : nil,
                description: keepsError ? String(describing: error) : code
            )
        }
    }
}
