package import Foundation

/// A decorator between a transaction and the store it wraps (events, faults): it sees each change a transaction
/// stages through it, may refuse the commit before anything is applied, and is told how the commit ended.
///
/// A wrapper that adds no storage of its own hands its staged writes to the store it wraps
/// (``TransactionalStore/transactionParticipant``), so the runner applies them below it. This is how it still sees
/// them: written once for every kind and form of wrapper, so a transaction's writes are reported and faulted as the
/// same writes made one by one are.
package protocol StagedWriteInterceptor: Sendable {
    /// Throws what this wrapper would throw for `change` made alone, failing the transaction before anything is
    /// applied; returns for a change it lets through.
    func willCommit(_ change: StagedWrite.Change) throws

    /// Tells the wrapper of a `change` staged through it, once the commit that held it ended: the commit started at
    /// `start`, took `duration`, and threw `error` (nil when every change was applied).
    func didCommit(_ change: StagedWrite.Change, start: Date, duration: Duration, error: (any Error)?)
}

/// A wrapper whose staged writes pass interceptors: its own, then those of the wrappers below it.
package protocol InterceptingTransactionalStore: TransactionalStore {
    /// The interceptors a change staged through this store passes, outermost first: never none, as a type whose store
    /// passes none is taken for a type of stores that are no wrappers.
    var stagedWriteInterceptors: [any StagedWriteInterceptor] { get }
}

extension TransactionalStore {
    /// The interceptors a change staged through this store passes, outermost first; none for a store that is not a
    /// wrapper.
    package var interceptorsOfStagedWrites: [any StagedWriteInterceptor] {
        guard let wrapper = self as? any InterceptingTransactionalStore else { return [] }
        let interceptors = wrapper.stagedWriteInterceptors
        assert(!interceptors.isEmpty, "\(type(of: self)) intercepts staged writes but named no interceptor")
        return interceptors
    }
}
