package import Foundation

/// Where a store made by `reportingEvents(label:to:)` reports what it does.
///
/// It times each call the wrapper's backend makes to the wrapped store's, and tells the handler how the call ended.
/// Every kind's event wrappers, synchronous and asynchronous, report through it, so an event means the same whatever
/// the store.
package struct StoreEventReporter: Sendable {
    /// The kind of store reporting.
    let store: StoreEvent.Store
    /// The label the store was given.
    let label: String
    /// The caller's handler.
    let handler: @Sendable (StoreEvent) -> Void
    /// The kind's reading of what a call threw: its error's case and reason, the error kept or withheld.
    let failure: @Sendable (any Error) -> StoreEvent.Failure
    /// How the events name keys and paths.
    let keyNames: StoreEvent.KeyNames

    /// A reporter for a store of kind `store` labelled `label`, which reads a thrown error with `failure`, shows key
    /// names and paths as `keyNames` says, and tells `handler` each event.
    package init(
        store: StoreEvent.Store,
        label: String,
        keyNames: StoreEvent.KeyNames = .clear,
        handler: @escaping @Sendable (StoreEvent) -> Void,
        failure: @escaping @Sendable (any Error) -> StoreEvent.Failure
    ) {
        self.store = store
        self.label = label
        self.keyNames = keyNames
        self.handler = handler
        self.failure = failure
    }

    /// Runs `body`, the call `operation` on `target`, and reports it when it returns or throws.
    ///
    /// - Parameters:
    ///   - operation: What the call does.
    ///   - target: The key or path it is for; nil for the whole store. A secret store's events never name it.
    ///   - bytesWritten: The bytes it writes, when it writes.
    ///   - bytesRead: The bytes of what it returned, when it reads.
    ///   - body: The call to the wrapped store.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, as it is.
    package func call<Result, Failure: Error>(
        _ operation: StoreOperation,
        _ target: String?,
        writing bytesWritten: Int? = nil,
        reading bytesRead: (Result) -> Int? = { _ in nil },
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let start = Date()
        let began = ContinuousClock.now
        do {
            let result = try body()
            finish(operation, target, start, began, .succeeded, read: bytesRead(result), written: bytesWritten)
            return result
        } catch {
            finish(operation, target, start, began, .failed(shownFailure(error)), read: nil, written: nil)
            throw error
        }
    }

    /// Runs `body`, the asynchronous call `operation` on `target`, and reports it when it returns or throws.
    ///
    /// It runs where its caller runs; see ``call(_:_:writing:reading:_:)``.
    ///
    /// - Parameters:
    ///   - operation: What the call does.
    ///   - target: The key or path it is for; nil for the whole store. A secret store's events never name it.
    ///   - bytesWritten: The bytes it writes, when it writes.
    ///   - bytesRead: The bytes of what it returned, when it reads.
    ///   - body: The call to the wrapped store.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, as it is.
    package nonisolated(nonsending) func callAsync<Result, Failure: Error>(
        _ operation: StoreOperation,
        _ target: String?,
        writing bytesWritten: Int? = nil,
        reading bytesRead: (Result) -> Int? = { _ in nil },
        _ body: nonisolated(nonsending) () async throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        let start = Date()
        let began = ContinuousClock.now
        do {
            let result = try await body()
            finish(operation, target, start, began, .succeeded, read: bytesRead(result), written: bytesWritten)
            return result
        } catch {
            finish(operation, target, start, began, .failed(shownFailure(error)), read: nil, written: nil)
            throw error
        }
    }

    /// Reports `kind`, an event of the read of `target` that is not a call (a value that did not decode, a
    /// migration).
    package func report(_ kind: StoreEvent.Kind, reading target: String) {
        let shownKind: StoreEvent.Kind
        switch kind {
        case .valueNotDecoded(let failure):
            shownKind = .valueNotDecoded(
                StoreEvent.DecodingFailure(
                    expectedType: failure.expectedType,
                    storedName: keyNames.shown(failure.storedName) ?? "",
                    underlying: failure.underlying,
                    readAsNil: failure.readAsNil
                )
            )
        case .migrationApplied(let migration):
            shownKind = .migrationApplied(
                StoreEvent.Migration(
                    storedName: keyNames.shown(migration.storedName) ?? "",
                    olderType: migration.olderType,
                    currentType: migration.currentType
                )
            )
        case .call, .expiredValuesReclaimed:
            shownKind = kind
        }
        handler(event(.read, target, shownKind))
    }

    /// Reports that a reclaim removed `count` expired values; nothing when it removed none.
    package func reportReclaimed(_ count: Int) {
        guard count > 0 else { return }
        handler(event(.reclaimExpired, nil, .expiredValuesReclaimed(count)))
    }

    /// The event `kind` of the call `operation` on `target`, which it names as ``keyNames`` says; a secret store's
    /// event names no secret.
    private func event(_ operation: StoreOperation, _ target: String?, _ kind: StoreEvent.Kind) -> StoreEvent {
        StoreEvent(
            store: store,
            label: label,
            operation: operation,
            target: store == .secrets ? nil : target.flatMap(keyNames.shown),
            kind: kind,
            withholdsNames: keyNames.isOmitted
        )
    }

    /// What the call's `error` is reported as: the kind's reading of it, and when the events do not show names in
    /// the clear, its code and reason alone, since the error and its description name the key or path.
    private func shownFailure(_ error: any Error) -> StoreEvent.Failure {
        let read = failure(error)
        guard !keyNames.isClear, read.error != nil else { return read }
        let description = read.reason.map { "\(read.code): \($0)" } ?? read.code
        return StoreEvent.Failure(code: read.code, reason: read.reason, error: nil, description: description)
    }

    /// Reports the call `operation` on `target` that started at `start` (`began` by the monotonic clock) and ended
    /// now with `outcome`.
    private func finish(
        _ operation: StoreOperation,
        _ target: String?,
        _ start: Date,
        _ began: ContinuousClock.Instant,
        _ outcome: StoreEvent.Outcome,
        read: Int?,
        written: Int?
    ) {
        let call = StoreEvent.Call(
            start: start,
            duration: ContinuousClock.now - began,
            outcome: outcome,
            bytesRead: read,
            bytesWritten: written
        )
        handler(event(operation, target, .call(call)))
    }
}

extension StoreEventReporter: StoreCallInterceptor {
    /// Runs `body` and reports the call `call` describes, as ``call(_:_:writing:reading:_:)`` does.
    package func intercept<Result>(_ call: StoreCall<Result>, _ body: () throws -> Result) throws -> Result {
        try self.call(call.operation, call.target, writing: call.bytesWritten, reading: call.bytesRead, body)
    }

    /// Runs `body` and reports the asynchronous call `call` describes, as ``callAsync(_:_:writing:reading:_:)`` does.
    package nonisolated(nonsending) func interceptAsync<Result>(
        _ call: StoreCall<Result>,
        _ body: nonisolated(nonsending) () async throws -> Result
    ) async throws -> Result {
        try await callAsync(call.operation, call.target, writing: call.bytesWritten, reading: call.bytesRead, body)
    }

    /// Runs `body`, an existence check, and reports it.
    package func check(_ call: StoreCall<Bool>, _ body: () -> Bool) -> Bool {
        self.call(call.operation, call.target, body)
    }

    /// False: an inspection of the whole store is reported as one listing.
    package var walksTheStoreCallByCall: Bool { false }

    /// Reports that a reclaim removed `count` expired values; see ``reportReclaimed(_:)``.
    package func didReclaim(_ count: Int) { reportReclaimed(count) }

    /// Lets every change through: events only tell.
    package func willCommit(_ change: StagedWrite.Change) throws {}

    /// Reports `change`, a transaction's write, as the same write made alone is reported, timed as the commit that
    /// applied it.
    package func didCommit(_ change: StagedWrite.Change, start: Date, duration: Duration, error: (any Error)?) {
        guard let (operation, target) = change.call else { return }
        let written: Int? =
            switch change {
            case .storeValue(let json, _, _): json.count
            case .writeFile(let data, _, _): data.count
            default: nil
            }
        let call = StoreEvent.Call(
            start: start,
            duration: duration,
            outcome: error.map { .failed(shownFailure($0)) } ?? .succeeded,
            bytesRead: nil,
            bytesWritten: error == nil ? written : nil
        )
        handler(event(operation, target, .call(call)))
    }
}
