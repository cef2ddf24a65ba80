/// What applies a ``StorageTransaction``'s writes as one: the database of the stores that return it.
///
/// Stores that return the same runner (the same instance) can share a transaction. A runner applies the writes in
/// their order, all or none (a write that fails undoes those before it), so that no reader of the stores sees some
/// of them and not the others.
public protocol TransactionRunner: AnyObject, Sendable {
    /// Applies `writes` in order, all or none.
    ///
    /// - Throws: The error of the write that failed, as its store throws it for the same write alone, or the error of
    ///   a ``StagedWrite/Change/fail(_:)``; nothing is applied then.
    func commit(_ writes: [StagedWrite]) throws

    /// Applies `writes` in order, all or none, waiting for a store behind a network. The default calls the
    /// synchronous ``commit(_:)``.
    ///
    /// - Throws: As ``commit(_:)`` does.
    func commitAsynchronously(_ writes: [StagedWrite]) async throws
}

extension TransactionRunner {
    /// Applies `writes` with the synchronous ``commit(_:)``.
    public func commitAsynchronously(_ writes: [StagedWrite]) async throws {
        try commit(writes)
    }
}
