package import ForgeCore
public import Foundation

/// A key-value store seen through the seam: the store it wraps, with each call to that store's storage passing an
/// interceptor on the way. Events (`reportingEvents(label:keyNames:to:)`) and a test's faults and operation log
/// (ForgeStorageTesting's `injectingFaults(_:log:label:)`) are the interceptors:
///
/// ```swift
/// let settings = DiskKVStore(namespace: "settings").reportingEvents(label: "settings") { event in
///     print(event.operation, event.target ?? "", event.kind)
/// }
/// try settings.set(TaskKeys.taskCount, value: 3)   // reports a write of "taskflow.taskCount"
/// ```
///
/// It is a ``KVBackend`` over the wrapped store's, so every requirement of ``KVStoring`` and ``AsyncKVStoring`` comes
/// with it, and it keeps every capability the wrapped store has: lifetimes in both forms (``ExpiringKVStoring``,
/// ``AsyncExpiringKVStoring``), transactions (``TransactionalKVStore``: the writes a transaction stages on it are
/// applied to the wrapped store, and pass the interceptor as the same writes made alone do), observation
/// (``KVChangeObserving``) and streams (``AsyncKVStreaming``), which pass no interceptor. Stores seen through the seam
/// nest: each wrapper sees every call the wrapper above it makes. ``InterceptedAsyncKVStore`` is the same for an
/// ``AsyncKVBackend``.
public struct InterceptedKVStore<Base: KVBackend>: Sendable {
    /// The store every call goes to.
    public let base: Base
    /// What each call to `base` passes.
    let interceptor: any StoreCallInterceptor
    /// The events of reads above the storage (migrations, values that do not decode).
    let reads: KVReadEvents

    /// Wraps `base`, each call passing `interceptor`; `reporter` reports the reads' migrations and undecodable values.
    package init(_ base: Base, interceptor: any StoreCallInterceptor, reporter: StoreEventReporter? = nil) {
        self.base = base
        self.interceptor = interceptor
        self.reads = KVReadEvents(reporter: reporter)
    }
}

extension InterceptedKVStore: KVStoring, KVBackend {
    /// `base`'s value under `name`.
    public func storedValue(named name: String) throws -> KVStoredValue? {
        try interceptor.intercept(.read(name)) { try base.storedValue(named: name) }
    }

    /// Stores `value` in `base`.
    public func store(_ value: KVStoredValue, named name: String) throws {
        try interceptor.intercept(.write(name, bytes: value.byteCount)) { try base.store(value, named: name) }
    }

    /// Stores `value` in `base` unless `name` holds a value live at `date`, as one write.
    public func storeIfAbsent(_ value: KVStoredValue, named name: String, liveAt date: Date) throws -> Bool {
        try interceptor.intercept(.write(name, bytes: value.byteCount)) {
            try base.storeIfAbsent(value, named: name, liveAt: date)
        }
    }

    /// Removes `name` from `base`.
    public func removeValue(named name: String) throws {
        try interceptor.intercept(.delete(name)) { try base.removeValue(named: name) }
    }

    /// Whether `base` holds `name`.
    public func hasValue(named name: String) -> Bool {
        interceptor.check(.exists(name)) { base.hasValue(named: name) }
    }

    /// `base`'s names.
    public func storedNames() throws -> [String] {
        try interceptor.intercept(.list(nil)) { try base.storedNames() }
    }

    /// Removes everything from `base`.
    public func removeAll() throws {
        try interceptor.intercept(.deleteAll) { try base.removeAll() }
    }

    /// Whether `base` holds a value under `name` not expired at `date`.
    public func hasValue(named name: String, liveAt date: Date) -> Bool {
        interceptor.check(.exists(name)) { base.hasValue(named: name, liveAt: date) }
    }

    /// `base`'s way of keeping values with a lifetime.
    public var expiry: KVExpiry? { base.expiry }

    /// `base`'s names that hold a value not expired at `date`.
    public func storedNames(liveAt date: Date) throws -> [String] {
        try interceptor.intercept(.list(nil)) { try base.storedNames(liveAt: date) }
    }

    /// Removes `base`'s values expired at `date`, up to `limit`; events report the number removed as
    /// `StoreEvent.Kind.expiredValuesReclaimed`.
    public func removeExpiredValues(at date: Date, limit: Int) throws -> [String] {
        let removed = try interceptor.intercept(.reclaimExpired) {
            try base.removeExpiredValues(at: date, limit: limit)
        }
        interceptor.didReclaim(removed.count)
        return removed
    }

    /// Returns the value stored for `key` or migrated from an older one, or nil; events report a migration that
    /// served it and a value that did not decode.
    public func get<T: Codable & Sendable>(_ key: KVKey<T>) -> T? {
        try? reads.value(of: key, in: BackendValues(backend: self), readAsNil: true)
    }

    /// Returns the value stored for `key`, as ``KVStoring/value(for:)``; events report a migration that served it and
    /// a value that did not decode.
    ///
    /// - Throws: ``KVStoreError/decodingFailed(key:underlying:)`` or ``KVStoreError/readFailed(key:underlying:)``.
    public func value<T: Codable & Sendable>(for key: KVKey<T>) throws -> T? {
        try reads.value(of: key, in: BackendValues(backend: self), readAsNil: false)
    }
}

extension InterceptedKVStore: AsyncKVStoring {}

extension InterceptedKVStore: ExpiringKVStoring where Base: ExpiringKVStoring {}

/// The lifetimes of the wrapped store in both forms, so that a service or an ``ExpiryReaper`` taking an
/// ``AsyncExpiringKVStoring`` takes the wrapped store too.
extension InterceptedKVStore: AsyncExpiringKVStoring where Base: ExpiringKVStoring {}

extension InterceptedKVStore: KVChangeObserving where Base: KVChangeObserving {
    /// `base`'s changes: see `KVChangeObserving.observeChanges(_:)`.
    public func observeChanges(_ onChange: @escaping @Sendable (_ key: String?) -> Void) -> ChangeObservation {
        base.observeChanges(onChange)
    }

    /// `base`'s changes of `key`: see `KVChangeObserving.observeChanges(of:_:)`.
    public func observeChanges(of key: String, _ onChange: @escaping @Sendable () -> Void) -> ChangeObservation? {
        base.observeChanges(of: key, onChange)
    }
}

extension InterceptedKVStore: AsyncKVStreaming where Base: AsyncKVStreaming {
    /// `base`'s stream of `key`, whose reads pass no interceptor: see ``AsyncKVStreaming/stream(_:)``.
    public func stream<T: Codable & Sendable & Equatable>(_ key: KVKey<T>) -> AsyncStream<T?> { base.stream(key) }
}

extension InterceptedKVStore: TransactionalStore, InterceptingTransactionalStore where Base: TransactionalStore {
    /// The wrapped store's runner: a transaction stages this store's writes on the wrapped store.
    public var transactionRunner: any TransactionRunner { base.transactionRunner }

    /// The wrapped store, to which the runner applies this store's staged writes.
    public var transactionParticipant: any TransactionalStore { base.transactionParticipant }

    /// This store's interceptor, then the wrappers' below.
    package var stagedWriteInterceptors: [any StagedWriteInterceptor] {
        [interceptor] + base.interceptorsOfStagedWrites
    }
}
