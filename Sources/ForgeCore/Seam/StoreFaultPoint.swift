package import Foundation

/// Where a test's faults (ForgeStorageTesting's `StoreFaults` and `OperationLog`) enter a store of one kind: the
/// in-memory twin asks it before each change of its storage, and a store made by `injectingFaults(_:log:label:)`
/// before each call to the store it wraps.
///
/// A kind says only what its stores throw for a fault (``fail(_:_:as:)``); asking, damaging, hiding and a
/// transaction's changes are written here once. A point without an instrument lets every call through.
package protocol StoreFaultPoint: StoreCallInterceptor {
    /// The faults and operation log a test asked for; nil for a plain store.
    var instrument: (any StoreInstrument)? { get }

    /// Throws what this kind's real stores throw when `operation` on `target` fails as `fault` says; returns for a
    /// fault that does not fail that operation (one that damages a read, or hides or spares an existence check).
    func fail(_ operation: StoreOperation, _ target: String?, as fault: StoreFailure) throws
}

// The calls every store makes on each operation are inlinable: in the in-memory get, a call across modules cost as
// much as the read (kv.memory.get at 4.76x a locked dictionary's; 3.76x with these inlined, see InMemoryKVStore).
extension StoreFaultPoint {
    /// Asks for the fault of `operation` on `target` and logs the call: throws a fault that fails it, and returns one
    /// that damages or hides what it answers (nil for none).
    @inlinable
    package func begin(_ operation: StoreOperation, _ target: String?) throws -> StoreFailure? {
        guard let fault = instrument?.begin(operation, target: target) else { return nil }
        try fail(operation, target, as: fault)
        return fault
    }

    /// Runs `body` unless a fault fails the call; answers what a fault that hides or damages makes of it.
    ///
    /// A reclaim of expired values meets no fault and is not logged, as the in-memory twin's is not.
    @inlinable
    package func intercept<Result>(_ call: StoreCall<Result>, _ body: () throws -> Result) throws -> Result {
        guard call.operation != .reclaimExpired else { return try body() }
        let fault = try begin(call.operation, call.target)
        if fault?.hidesItems == true, let hidden = call.whenHidden { return hidden }
        let result = try body()
        if fault?.isCorruptData == true, let damaged = call.whenDamaged { return try damaged(result) }
        return result
    }

    /// Runs `body` unless a fault fails the call; see ``intercept(_:_:)``.
    package nonisolated(nonsending) func interceptAsync<Result>(
        _ call: StoreCall<Result>,
        _ body: nonisolated(nonsending) () async throws -> Result
    ) async throws -> Result {
        guard call.operation != .reclaimExpired else { return try await body() }
        let fault = try begin(call.operation, call.target)
        if fault?.hidesItems == true, let hidden = call.whenHidden { return hidden }
        let result = try await body()
        if fault?.isCorruptData == true, let damaged = call.whenDamaged { return try damaged(result) }
        return result
    }

    /// Asks for the fault of a check that `target` exists, and logs it: whether a fault hides `target`.
    @inlinable
    package func hides(_ target: String?) -> Bool {
        instrument?.begin(.exists, target: target)?.hidesItems == true
    }

    /// Runs `body`, an existence check, unless a fault hides its target: then answers false.
    @inlinable
    package func check(_ call: StoreCall<Bool>, _ body: () -> Bool) -> Bool {
        hides(call.target) ? call.whenHidden ?? false : body()
    }

    /// True: an inspection of the whole store meets the faults of each listing and look it is made of, as the
    /// twin's does.
    package var walksTheStoreCallByCall: Bool { true }

    /// Nothing: faults do not count what a reclaim removed.
    package func didReclaim(_ count: Int) {}

    /// Throws the fault that fails `change` made alone: a transaction's write or removal meets the faults its store's
    /// own does.
    package func willCommit(_ change: StagedWrite.Change) throws {
        guard let (operation, target) = change.call else { return }
        _ = try begin(operation, target)
    }

    /// Nothing: a fault acts before the commit.
    package func didCommit(_ change: StagedWrite.Change, start: Date, duration: Duration, error: (any Error)?) {}
}

extension StagedWrite.Change {
    /// The call this change is when made alone: what it does and its key, path or secret's name; nil for a change
    /// that only fails the transaction.
    package var call: (StoreOperation, String)? {
        switch self {
        case .storeValue(_, let name, _), .storeSecret(_, let name): (.write, name)
        case .removeValue(let name), .removeSecret(let name): (.delete, name)
        case .writeFile(_, let path, _): (.write, path)
        case .removeFile(let path): (.delete, path)
        case .fail: nil
        }
    }
}
