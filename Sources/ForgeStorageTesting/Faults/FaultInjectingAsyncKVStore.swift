public import ForgeKVStore
internal import ForgeCore
public import Foundation

/// Any asynchronous key-value store (a server's, such as `PostgresKVStore`) with a test's faults injected before each
/// call it makes to its storage, and each call logged: ``FaultInjectingKVStore`` for `AsyncKVBackend`.
public struct FaultInjectingAsyncKVStore<Base: AsyncKVBackend>: Sendable {
    /// The store every call goes to, once its fault, if any, has been injected.
    public let base: Base
    /// Where the faults enter.
    let faults: KVFaultPoint
}

extension FaultInjectingAsyncKVStore: AsyncKVStoring, AsyncKVBackend {
    /// `base`'s values under `names`, unless a fault fails or damages the read (asked once, for the key's own name).
    public func storedValues(named names: [String]) async throws -> [String: KVStoredValue] {
        let damaged = try faults.read(names.first ?? "")
        let values = try await base.storedValues(named: names)
        return damaged ? values.compactMapValues { faults.damaged($0) } : values
    }

    /// Stores `value` in `base`, unless a fault fails the write.
    public func store(_ value: KVStoredValue, named name: String) async throws {
        try faults.write(name)
        try await base.store(value, named: name)
    }

    /// Removes `names` from `base`, unless a fault fails the removal (asked once, for the key's own name, the last).
    public func removeValues(named names: [String]) async throws {
        try faults.remove(names.last ?? "")
        try await base.removeValues(named: names)
    }

    /// Whether `base` holds any of `names`; false when a fault hides them.
    public func hasValue(named names: [String]) async throws -> Bool {
        if faults.hides(names.first ?? "") { return false }
        return try await base.hasValue(named: names)
    }

    /// `base`'s names, unless a fault fails the listing.
    public func storedNames() async throws -> [String] {
        try faults.list()
        return try await base.storedNames()
    }

    /// Removes everything from `base`, unless a fault fails it.
    public func removeAll() async throws {
        try faults.removeAll()
        try await base.removeAll()
    }

    /// `base`'s way of keeping values with a lifetime.
    public var expiry: KVExpiry? { base.expiry }

    /// `base`'s names that hold a value not expired at `date`, unless a fault fails the listing.
    public func storedNames(liveAt date: Date) async throws -> [String] {
        try faults.list()
        return try await base.storedNames(liveAt: date)
    }

    /// Removes `base`'s values expired at `date`, up to `limit`; no fault fails it.
    public func removeExpiredValues(at date: Date, limit: Int) async throws -> [String] {
        try await base.removeExpiredValues(at: date, limit: limit)
    }
}

extension FaultInjectingAsyncKVStore: AsyncExpiringKVStoring where Base: AsyncExpiringKVStoring {}

extension AsyncKVBackend {
    /// This store, with the faults of `faults` injected before each call it makes to its storage, and each call logged
    /// to `log` as the store `label`.
    public func injectingFaults(
        _ faults: StoreFaults? = nil,
        log: OperationLog? = nil,
        label: String = "kv"
    ) -> FaultInjectingAsyncKVStore<Self> {
        FaultInjectingAsyncKVStore(
            base: self,
            faults: KVFaultPoint(StoreInstrumentation.make(label: label, faults: faults, log: log))
        )
    }
}

extension FaultInjectingAsyncKVStore: TransactionalStore, InterceptingTransactionalStore
where Base: TransactionalKVStore {
    /// The wrapped store's runner: a transaction stages this store's writes on the wrapped store.
    public var transactionRunner: any TransactionRunner { base.transactionRunner }

    /// The wrapped store, to which the runner applies this store's staged writes.
    public var transactionParticipant: any TransactionalStore { base.transactionParticipant }

    /// The faults, then the wrappers below: a transaction's write meets the faults the same write made alone does,
    /// before anything is applied.
    package var stagedWriteInterceptors: [any StagedWriteInterceptor] {
        [faults] + base.interceptorsOfStagedWrites
    }
}

extension FaultInjectingAsyncKVStore: TransactionalKVStore where Base: TransactionalKVStore {}

extension FaultInjectingAsyncKVStore: AsyncKVStreaming where Base: AsyncKVStreaming {
    /// `base`'s stream of `key`, whose reads faults do not touch: see `AsyncKVStreaming.stream(_:)`.
    public func stream<T: Codable & Sendable & Equatable>(_ key: KVKey<T>) -> AsyncStream<T?> { base.stream(key) }
}
