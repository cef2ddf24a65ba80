internal import Foundation
// swift-format-ignore: AmbiguousTrailingClosureOverload
/// Writes and removes across keys and stores of one database that all happen or none do, and that no reader sees
/// half of.
///
/// `run(_:)` gives `body` a transaction; each write and removal `body` makes through it (the methods each kind adds: `set(_:value:in:)`, `remove(_:in:)`, `save(_:to:overwrite:in:)`, `delete(_:in:)`,
/// `set(_:for:in:)`) is checked and kept, and when `body` returns, all of them are applied at once, in the order they
/// were made:
///
/// ```swift
/// try await StorageTransaction.run { transaction in
///     try transaction.set(TaskKeys.taskCount, value: tasks.count, in: settings)
///     try transaction.save(report, to: "reports/latest.json", in: files)
///     try transaction.set(token, for: AuthKeys.accessToken, in: secrets)
/// }
/// ```
///
/// The stores must share one database (one ``TransactionRunner``): the stores of one SQLite file, the in-memory
/// twins, a PostgreSQL key-value store's client. A store joins when it declares ``TransactionalStore`` through its
/// kind's protocol; a store that cannot apply several writes as one (a file per key, `UserDefaults`) does not declare
/// it. Nothing is applied while `body` runs, so a read in `body` finds the stores as they were; when `body` throws,
/// nothing is applied at all.
public final class StorageTransaction: Sendable {
    /// The runner of the first store staged, the writes so far, and whether the transaction still takes writes.
    private let state = LockedState(State())

    private struct State: Sendable {
        var runner: (any TransactionRunner)?
        var writes: [StagedWrite] = []
        /// The changes staged through wrappers that intercept them, in the order staged.
        var intercepted: [Intercepted] = []
        /// The type of the last store staged through that is no wrapper, whose next writes pass no interceptor: a
        /// transaction of many writes asks the type once, not once per write.
        var typeWithoutInterceptors: ObjectIdentifier?
        var isOpen = true
    }

    /// A staged change, and the wrappers it was staged through that see it, outermost first.
    private struct Intercepted: Sendable {
        let change: StagedWrite.Change
        let interceptors: [any StagedWriteInterceptor]
    }

    /// The writes a closed transaction applies, the runner that applies them and the wrappers that see them.
    private struct Pending {
        let runner: any TransactionRunner
        let writes: [StagedWrite]
        let intercepted: [Intercepted]

        /// Applies the writes with `commit`, once every interceptor let its changes through, and tells each
        /// interceptor that saw a change how the commit ended.
        nonisolated(nonsending) func apply(_ commit: nonisolated(nonsending) () async throws -> Void) async throws {
            let start = (date: Date(), instant: ContinuousClock.now)
            var told = intercepted.map(\.interceptors.count)
            do {
                try letThrough(&told)
                try await commit()
            } catch {
                report(since: start, told: told, error: error)
                throw error
            }
            report(since: start, told: told, error: nil)
        }

        /// Applies the writes with the runner's synchronous commit, as ``apply(_:)`` does.
        func applySynchronously() throws {
            let start = (date: Date(), instant: ContinuousClock.now)
            var told = intercepted.map(\.interceptors.count)
            do {
                try letThrough(&told)
                try runner.commit(writes)
            } catch {
                report(since: start, told: told, error: error)
                throw error
            }
            report(since: start, told: told, error: nil)
        }

        /// Asks the interceptors of each change, outermost first, to let it through.
        ///
        /// When one refuses, `told` ends at it for that change: the wrappers inside it never see the change, as they
        /// would not see it made alone.
        private func letThrough(_ told: inout [Int]) throws {
            for (index, entry) in intercepted.enumerated() {
                for (depth, interceptor) in entry.interceptors.enumerated() {
                    do {
                        try interceptor.willCommit(entry.change)
                    } catch {
                        told[index] = depth + 1
                        throw error
                    }
                }
            }
        }

        /// Tells the first `told` interceptors of each change how the commit that began at `start` ended.
        private func report(
            since start: (date: Date, instant: ContinuousClock.Instant),
            told: [Int],
            error: (any Error)?
        ) {
            let duration = ContinuousClock.now - start.instant
            for (entry, count) in zip(intercepted, told) {
                for interceptor in entry.interceptors.prefix(count) {
                    interceptor.didCommit(entry.change, start: start.date, duration: duration, error: error)
                }
            }
        }
    }

    private init() {}

    // The three forms of `run` share a name on purpose, as GRDB's `write` does: a synchronous caller gets this one,
    // an `async` caller the one that awaits the commit, and a body that awaits the last one.
    /// Runs `body`, then applies every write it staged as one, all or none.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws (nothing is applied); ``StorageTransactionError``; or the error of the write that
    ///   failed, as its store throws it for the same write alone (nothing is applied either).
    public static func run<Result>(_ body: (StorageTransaction) throws -> Result) throws -> Result {
        let transaction = StorageTransaction()
        let result: Result
        do {
            result = try body(transaction)
        } catch {
            _ = transaction.close()
            throw error
        }
        if let pending = transaction.close() { try pending.applySynchronously() }
        return result
    }

    /// Runs `body`, then applies every write it staged as one, all or none, waiting for a store behind a network.
    ///
    /// In an `async` function, `try await StorageTransaction.run { ... }` calls this form (or the one whose body
    /// awaits), so a transaction of stores that commit only asynchronously (PostgreSQL) is applied as they need. The
    /// body runs on the caller's actor (the main actor in a view model), so it may use the caller's state.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws (nothing is applied); ``StorageTransactionError``; or the error of the write that
    ///   failed, as its store throws it for the same write alone (nothing is applied either).
    public nonisolated(nonsending) static func run<Result>(
        _ body: (StorageTransaction) throws -> Result
    ) async throws -> Result {
        try await run { (transaction: StorageTransaction) async throws -> Result in try body(transaction) }
    }

    /// Runs `body`, which may await, then applies every write it staged as one, all or none.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws (nothing is applied); ``StorageTransactionError``; or the error of the write that
    ///   failed, as its store throws it for the same write alone (nothing is applied either).
    public nonisolated(nonsending) static func run<Result>(
        _ body: (StorageTransaction) async throws -> Result
    ) async throws -> Result {
        let transaction = StorageTransaction()
        let result: Result
        do {
            result = try await body(transaction)
        } catch {
            _ = transaction.close()
            throw error
        }
        if let pending = transaction.close() {
            try await pending.apply { try await pending.runner.commitAsynchronously(pending.writes) }
        }
        return result
    }

    /// Adds `change` of `store` to the writes this transaction applies: what the methods of each kind call once they
    /// have checked a key or a path and encoded a value, so that a runner receives only checked changes.
    ///
    /// - Throws: ``StorageTransactionError/storesOfDifferentDatabases(_:_:)`` when `store`'s runner is not that of the
    ///   stores staged before; ``StorageTransactionError/transactionEnded`` once `run(_:)` has returned.
    package func stage(_ change: StagedWrite.Change, in store: some TransactionalStore) throws(StorageTransactionError)
    {
        let participant = store.transactionParticipant
        let runner = participant.transactionRunner
        let refusal = state.withLock { state -> StorageTransactionError? in
            guard state.isOpen else { return .transactionEnded }
            if let first = state.runner, first !== runner {
                return .storesOfDifferentDatabases(
                    String(describing: type(of: first)),
                    String(describing: type(of: runner))
                )
            }
            state.runner = runner
            state.writes.append(StagedWrite(store: participant, change: change))
            let type = ObjectIdentifier(type(of: store))
            guard state.typeWithoutInterceptors != type else { return nil }
            let interceptors = store.interceptorsOfStagedWrites
            if interceptors.isEmpty {
                state.typeWithoutInterceptors = type
            } else {
                state.intercepted.append(Intercepted(change: change, interceptors: interceptors))
            }
            return nil
        }
        if let refusal { throw refusal }
    }

    /// Stages a change that fails the transaction with `error` when the runner reaches it, in `store`'s part, as a write
    /// that fails there would: how a test proves that a store's transactions are all or nothing (ForgeStorageTesting's
    /// `TransactionConformance` stages one between writes).
    ///
    /// ```swift
    /// await #expect(throws: Refused.self) {
    ///     try await StorageTransaction.run { transaction in
    ///         try transaction.set(TaskKeys.taskCount, value: 3, in: settings)
    ///         try transaction.stageFailure(Refused(), in: settings)
    ///     }
    /// }
    /// #expect(settings.get(TaskKeys.taskCount) == nil)
    /// ```
    ///
    /// - Throws: As the other writes of a transaction do: ``StorageTransactionError``.
    public func stageFailure(_ error: any Error & Sendable, in store: some TransactionalStore) throws {
        try stage(.fail(error), in: store)
    }

    /// Ends the transaction, so that no write is staged after this.
    ///
    /// - Returns: The runner and the writes to commit, or nil when nothing was staged.
    private func close() -> Pending? {
        state.withLock { state in
            state.isOpen = false
            guard let runner = state.runner, !state.writes.isEmpty else { return nil }
            return Pending(runner: runner, writes: state.writes, intercepted: state.intercepted)
        }
    }
}
