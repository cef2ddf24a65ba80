/// An in-memory store that applies its part of a transaction while it holds its lock.
package protocol InMemoryTransactionParticipant: AnyObject, Sendable {
    /// Takes the store's lock and runs `body` with a function that applies a change to the store's state; when `body`
    /// throws, the state is put back as it was before `body` ran.
    ///
    /// - Returns: What tells the store's observers of the changes applied; the runner calls it once every store's
    ///   lock is released, so an observer may read or write any store.
    func applyingTransaction(
        _ body: (_ apply: (StagedWrite.Change) throws -> Void) throws -> Void
    ) throws -> () -> Void
}

/// The runner every in-memory twin shares, as the stores of one database share theirs: any of them can join one
/// transaction.
///
/// It takes the lock of every store in the transaction, always in the same order (so two transactions that share
/// stores wait for each other but never deadlock), applies the writes in their order, and puts every store back as it
/// was when one fails. A reader takes a store's lock too, so it finds all of a transaction's writes to that store or
/// none. Observers of the stores' changes are told once every lock is released.
package final class InMemoryTransactionRunner: TransactionRunner {
    /// The one runner of the in-memory stores.
    package static let shared = InMemoryTransactionRunner()

    private init() {}

    package func commit(_ writes: [StagedWrite]) throws {
        var participants: [ObjectIdentifier: any InMemoryTransactionParticipant] = [:]
        var steps: [(store: ObjectIdentifier, change: StagedWrite.Change)] = []
        for write in writes {
            guard let participant = write.store as? any InMemoryTransactionParticipant else {
                throw StorageTransactionError.storesOfDifferentDatabases(
                    String(describing: Self.self),
                    String(describing: type(of: write.store))
                )
            }
            let id = ObjectIdentifier(participant)
            participants[id] = participant
            steps.append((id, write.change))
        }
        let ordered = participants.keys.sorted().compactMap { participants[$0] }
        var notifications: [() -> Void] = []
        try Self.apply(steps, locking: ordered[...], notifications: &notifications) { _, _ in }
        for notify in notifications { notify() }
    }

    /// Takes the lock of the first of `participants`, then of the others inside it, one by one.
    ///
    /// With every lock held, applies `steps` in order: each through the store it is for, the others through `route`.
    /// Collects in `notifications` what tells each store's observers, to be called after every lock is released.
    private static func apply(
        _ steps: [(store: ObjectIdentifier, change: StagedWrite.Change)],
        locking participants: ArraySlice<any InMemoryTransactionParticipant>,
        notifications: inout [() -> Void],
        route: (ObjectIdentifier, StagedWrite.Change) throws -> Void
    ) throws {
        guard let participant = participants.first else {
            for step in steps { try route(step.store, step.change) }
            return
        }
        let id = ObjectIdentifier(participant)
        var inner: [() -> Void] = []
        let notify = try participant.applyingTransaction { apply in
            try Self.apply(steps, locking: participants.dropFirst(), notifications: &inner) { store, change in
                if store == id { try apply(change) } else { try route(store, change) }
            }
        }
        notifications.append(notify)
        notifications += inner
    }
}
