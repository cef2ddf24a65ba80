internal import ForgeCore
public import Foundation

/// A key-value store that tells a handler what it does, and otherwise is the store it wraps: each call to its storage
/// (how long it took, the bytes it read or wrote, how it ended), each value a read found that does not decode, and
/// each read a migration served, as `StoreEvent`s.
///
/// Make one with `reportingEvents(label:to:)`, on any store built on ``KVBackend`` (the library's, SQLite's, yours):
///
/// ```swift
/// let settings = DiskKVStore(namespace: "settings").reportingEvents(label: "settings") { event in
///     print(event.operation, event.target ?? "", event.kind)
/// }
/// try settings.set(TaskKeys.taskCount, value: 3)   // reports a write of "taskflow.taskCount"
/// ```
///
/// It is a ``KVBackend`` over the wrapped store's, so every requirement of ``KVStoring`` and ``AsyncKVStoring`` comes
/// with it, and it passes the conformance suites as the wrapped store does. The handler runs synchronously at the end
/// of each call, on the caller's thread and in its task. It observes the wrapped store's changes
/// (``KVChangeObserving``) and streams (``AsyncKVStreaming``) when that store has them; they report nothing. A store's
/// writes a transaction stages on the wrapper are applied to the wrapped store, and reported as the same writes made
/// alone, timed as the commit.
public struct EventReportingKVStore<Base: KVBackend>: Sendable {
    /// The store every call goes to.
    public let base: Base
    /// Where the events go.
    let events: KVReadEvents

    /// Wraps `base`, reporting to `handler` as the store `label`, naming keys and paths as `keyNames` says.
    init(
        _ base: Base,
        label: String,
        keyNames: StoreEvent.KeyNames,
        handler: @escaping @Sendable (StoreEvent) -> Void
    ) {
        self.base = base
        self.events = KVReadEvents(reporter: .keyValue(label: label, keyNames: keyNames, handler: handler))
    }

    /// The reporter of the storage's calls.
    private var reporter: StoreEventReporter { events.reporter }
}

extension EventReportingKVStore: KVStoring, KVBackend {
    /// `base`'s value under `name`, reported as a read.
    public func storedValue(named name: String) throws -> KVStoredValue? {
        try reporter.call(.read, name, reading: KVStoredValue.byteCount) { try base.storedValue(named: name) }
    }

    /// Stores `value` in `base`, reported as a write.
    public func store(_ value: KVStoredValue, named name: String) throws {
        try reporter.call(.write, name, writing: value.byteCount) { try base.store(value, named: name) }
    }

    /// Removes `name` from `base`, reported as a remove.
    public func removeValue(named name: String) throws {
        try reporter.call(.delete, name) { try base.removeValue(named: name) }
    }

    /// Whether `base` holds `name`, reported as a check that it exists.
    public func hasValue(named name: String) -> Bool {
        reporter.call(.exists, name) { base.hasValue(named: name) }
    }

    /// `base`'s names, reported as a listing.
    public func storedNames() throws -> [String] {
        try reporter.call(.list, nil) { try base.storedNames() }
    }

    /// Removes everything from `base`, reported as a removal of everything.
    public func removeAll() throws {
        try reporter.call(.deleteAll, nil) { try base.removeAll() }
    }

    /// Whether `base` holds a value under `name` not expired at `date`, reported as a check that it exists.
    public func hasValue(named name: String, liveAt date: Date) -> Bool {
        reporter.call(.exists, name) { base.hasValue(named: name, liveAt: date) }
    }

    /// `base`'s way of keeping values with a lifetime.
    public var expiry: KVExpiry? { base.expiry }

    /// `base`'s names that hold a value not expired at `date`, reported as a listing.
    public func storedNames(liveAt date: Date) throws -> [String] {
        try reporter.call(.list, nil) { try base.storedNames(liveAt: date) }
    }

    /// Removes `base`'s values expired at `date`, up to `limit`, reported as a reclaim, and the number it removed as `StoreEvent.Kind.expiredValuesReclaimed`.
    public func removeExpiredValues(at date: Date, limit: Int) throws -> [String] {
        let removed = try reporter.call(.reclaimExpired, nil) { try base.removeExpiredValues(at: date, limit: limit) }
        reporter.reportReclaimed(removed.count)
        return removed
    }

    /// Returns the value stored for `key` or migrated from an older one, or nil; a migration that served it and a
    /// value that did not decode are reported.
    public func get<T: Codable & Sendable>(_ key: KVKey<T>) -> T? {
        try? events.value(of: key, in: BackendValues(backend: self), readAsNil: true)
    }

    /// Returns the value stored for `key`, as ``KVStoring/value(for:)``; a migration that served it and a value that
    /// did not decode are reported.
    ///
    /// - Throws: ``KVStoreError/decodingFailed(key:underlying:)`` or ``KVStoreError/readFailed(key:underlying:)``.
    public func value<T: Codable & Sendable>(for key: KVKey<T>) throws -> T? {
        try events.value(of: key, in: BackendValues(backend: self), readAsNil: false)
    }
}

extension EventReportingKVStore: AsyncKVStoring {}

extension EventReportingKVStore: ExpiringKVStoring where Base: ExpiringKVStoring {}

/// The lifetimes of the wrapped store in both forms, so that a service or an ``ExpiryReaper`` taking an
/// ``AsyncExpiringKVStoring`` takes the wrapped store too.
extension EventReportingKVStore: AsyncExpiringKVStoring where Base: ExpiringKVStoring {}

extension EventReportingKVStore: KVChangeObserving where Base: KVChangeObserving {
    /// `base`'s changes, which are not reported: see `KVChangeObserving.observeChanges(_:)`.
    public func observeChanges(_ onChange: @escaping @Sendable (_ key: String?) -> Void) -> ChangeObservation {
        base.observeChanges(onChange)
    }

    /// `base`'s changes of `key`: see `KVChangeObserving.observeChanges(of:_:)`.
    public func observeChanges(of key: String, _ onChange: @escaping @Sendable () -> Void) -> ChangeObservation? {
        base.observeChanges(of: key, onChange)
    }
}

extension EventReportingKVStore: AsyncKVStreaming where Base: AsyncKVStreaming {
    /// `base`'s stream of `key`, whose reads are not reported: see ``AsyncKVStreaming/stream(_:)``.
    public func stream<T: Codable & Sendable & Equatable>(_ key: KVKey<T>) -> AsyncStream<T?> { base.stream(key) }
}

extension KVBackend {
    /// This store, telling `handler` what it does: each call to its storage, each value a read found that does not
    /// decode, each read a migration served.
    ///
    /// ```swift
    /// let settings = DiskKVStore(namespace: "settings").reportingEvents(label: "settings") { event in
    ///     print(event.operation, event.target ?? "", event.kind)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - label: The name the events give the store, to tell it from the app's other stores.
    ///   - keyNames: How the events name keys and paths: in the clear (the default), by a keyed hash, or not at all;
    ///     give `.hashed` or `.omitted` when a key or path may be a secret. See `StoreEvent.KeyNames`.
    ///   - handler: Called with each event, synchronously, in the caller's task, at the end of each call.
    /// - Returns: The store, wrapped; see ``EventReportingKVStore``.
    public func reportingEvents(
        label: String = "kv",
        keyNames: StoreEvent.KeyNames = .clear,
        to handler: @escaping @Sendable (StoreEvent) -> Void
    ) -> EventReportingKVStore<Self> {
        EventReportingKVStore(self, label: label, keyNames: keyNames, handler: handler)
    }
}

extension EventReportingKVStore: TransactionalStore, InterceptingTransactionalStore where Base: TransactionalKVStore {
    /// The wrapped store's runner: a transaction stages this store's writes on the wrapped store.
    public var transactionRunner: any TransactionRunner { base.transactionRunner }

    /// The wrapped store, to which the runner applies this store's staged writes.
    public var transactionParticipant: any TransactionalStore { base.transactionParticipant }

    /// The events' reporter, then the wrappers below: a transaction's writes are reported as the same writes made
    /// alone, timed as the commit that applied them.
    package var stagedWriteInterceptors: [any StagedWriteInterceptor] {
        [reporter] + base.interceptorsOfStagedWrites
    }
}

extension EventReportingKVStore: TransactionalKVStore where Base: TransactionalKVStore {}
