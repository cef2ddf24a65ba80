public import ForgeKVStore
internal import ForgeCore
public import Foundation

/// Any key-value store with a test's faults injected before each call it makes to its storage, and each call logged:
/// what `InMemoryKVStore(label:faults:log:)` does for the in-memory twin, for every other store.
///
/// A fault fails a call as a full disk or a denied permission fails `DiskKVStore`, whatever the store underneath, so
/// a service's failure paths can be tested on the store it runs on in production:
///
/// ```swift
/// let faults = StoreFaults()
/// let store = DiskKVStore(directory: .custom(folder), namespace: "settings").injectingFaults(faults)
/// faults.failNext(.write, with: .outOfSpace)
/// #expect(throws: KVStoreError.self) { try store.set(TaskKeys.taskCount, value: 1) }
/// ```
public struct FaultInjectingKVStore<Base: KVBackend>: Sendable {
    /// The store every call goes to, once its fault, if any, has been injected.
    public let base: Base
    /// Where the faults enter.
    let faults: KVFaultPoint

    /// Wraps `base`, taking faults from `faults` and logging each call to `log` as the store `label`.
    init(_ base: Base, label: String, faults: StoreFaults?, log: OperationLog?) {
        self.base = base
        self.faults = KVFaultPoint(StoreInstrumentation.make(label: label, faults: faults, log: log))
    }
}

extension FaultInjectingKVStore: KVStoring, KVBackend {
    /// `base`'s value under `name`, unless a fault fails or damages the read.
    public func storedValue(named name: String) throws -> KVStoredValue? {
        let damaged = try faults.read(name)
        let stored = try base.storedValue(named: name)
        return damaged ? faults.damaged(stored) : stored
    }

    /// Stores `value` in `base`, unless a fault fails the write.
    public func store(_ value: KVStoredValue, named name: String) throws {
        try faults.write(name)
        try base.store(value, named: name)
    }

    /// Removes `name` from `base`, unless a fault fails the remove.
    public func removeValue(named name: String) throws {
        try faults.remove(name)
        try base.removeValue(named: name)
    }

    /// Whether `base` holds `name`; false when a fault hides it.
    public func hasValue(named name: String) -> Bool {
        !faults.hides(name) && base.hasValue(named: name)
    }

    /// `base`'s names, unless a fault fails the listing.
    public func storedNames() throws -> [String] {
        try faults.list()
        return try base.storedNames()
    }

    /// Removes everything from `base`, unless a fault fails it.
    public func removeAll() throws {
        try faults.removeAll()
        try base.removeAll()
    }

    /// Whether `base` holds a value under `name` not expired at `date`; false when a fault hides it.
    public func hasValue(named name: String, liveAt date: Date) -> Bool {
        !faults.hides(name) && base.hasValue(named: name, liveAt: date)
    }

    /// `base`'s way of keeping values with a lifetime.
    public var expiry: KVExpiry? { base.expiry }

    /// `base`'s names that hold a value not expired at `date`, unless a fault fails the listing.
    public func storedNames(liveAt date: Date) throws -> [String] {
        try faults.list()
        return try base.storedNames(liveAt: date)
    }

    /// Removes `base`'s values expired at `date`, up to `limit`; no fault fails it.
    public func removeExpiredValues(at date: Date, limit: Int) throws -> [String] {
        try base.removeExpiredValues(at: date, limit: limit)
    }
}

extension FaultInjectingKVStore: AsyncKVStoring {}

extension FaultInjectingKVStore: ExpiringKVStoring where Base: ExpiringKVStoring {}

/// The lifetimes of the wrapped store in both forms, as ``FaultInjectingKVStore`` keeps every capability of its store.
extension FaultInjectingKVStore: AsyncExpiringKVStoring where Base: ExpiringKVStoring {}

extension FaultInjectingKVStore: AsyncKVStreaming where Base: AsyncKVStreaming {
    /// `base`'s stream of `key`, whose reads faults do not touch: see `AsyncKVStreaming.stream(_:)`.
    public func stream<T: Codable & Sendable & Equatable>(_ key: KVKey<T>) -> AsyncStream<T?> { base.stream(key) }
}

extension KVBackend {
    /// This store, with the faults of `faults` injected before each call it makes to its storage, and each call logged
    /// to `log` as the store `label`.
    public func injectingFaults(
        _ faults: StoreFaults? = nil,
        log: OperationLog? = nil,
        label: String = "kv"
    ) -> FaultInjectingKVStore<Self> {
        FaultInjectingKVStore(self, label: label, faults: faults, log: log)
    }
}

extension FaultInjectingKVStore: KVChangeObserving where Base: KVChangeObserving {
    /// `base`'s changes, which faults do not touch: see `KVChangeObserving.observeChanges(_:)`.
    public func observeChanges(_ onChange: @escaping @Sendable (_ key: String?) -> Void) -> ChangeObservation {
        base.observeChanges(onChange)
    }

    /// `base`'s changes of `key`: see `KVChangeObserving.observeChanges(of:_:)`.
    public func observeChanges(of key: String, _ onChange: @escaping @Sendable () -> Void) -> ChangeObservation? {
        base.observeChanges(of: key, onChange)
    }
}

extension FaultInjectingKVStore: TransactionalStore, InterceptingTransactionalStore where Base: TransactionalKVStore {
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

extension FaultInjectingKVStore: TransactionalKVStore where Base: TransactionalKVStore {}
