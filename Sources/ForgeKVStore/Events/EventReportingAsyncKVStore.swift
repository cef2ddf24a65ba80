internal import ForgeCore
public import Foundation

/// An asynchronous key-value store (a server's, such as `PostgresKVStore`) that tells a handler what it does, and
/// otherwise is the store it wraps: ``EventReportingKVStore`` for ``AsyncKVBackend``.
///
/// Each call to the server is one event, a read of a key and of its migrations' older names included; the handler
/// runs in the caller's task when the call returns, so a tracing span made from the event finds the caller's context.
/// It streams (``AsyncKVStreaming``) when the wrapped store does; the streams' reads are not reported.
public struct EventReportingAsyncKVStore<Base: AsyncKVBackend>: Sendable {
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

extension EventReportingAsyncKVStore: AsyncKVStoring, AsyncKVBackend {
    /// `base`'s values under `names`, reported as one read of the first name, the key's own.
    public func storedValues(named names: [String]) async throws -> [String: KVStoredValue] {
        try await reporter.callAsync(.read, names.first, reading: KVStoredValue.byteCount) {
            try await base.storedValues(named: names)
        }
    }

    /// Stores `value` in `base`, reported as a write.
    public func store(_ value: KVStoredValue, named name: String) async throws {
        try await reporter.callAsync(.write, name, writing: value.byteCount) {
            try await base.store(value, named: name)
        }
    }

    /// Removes `names` from `base`, reported as one remove of the last name, the key's own.
    public func removeValues(named names: [String]) async throws {
        try await reporter.callAsync(.delete, names.last) { try await base.removeValues(named: names) }
    }

    /// Whether `base` holds any of `names`, reported as one check that the first, the key's own, exists.
    public func hasValue(named names: [String]) async throws -> Bool {
        try await reporter.callAsync(.exists, names.first) { try await base.hasValue(named: names) }
    }

    /// `base`'s names, reported as a listing.
    public func storedNames() async throws -> [String] {
        try await reporter.callAsync(.list, nil) { try await base.storedNames() }
    }

    /// Removes everything from `base`, reported as a removal of everything.
    public func removeAll() async throws {
        try await reporter.callAsync(.deleteAll, nil) { try await base.removeAll() }
    }

    /// `base`'s way of keeping values with a lifetime.
    public var expiry: KVExpiry? { base.expiry }

    /// `base`'s names that hold a value not expired at `date`, reported as a listing.
    public func storedNames(liveAt date: Date) async throws -> [String] {
        try await reporter.callAsync(.list, nil) { try await base.storedNames(liveAt: date) }
    }

    /// Removes `base`'s values expired at `date`, up to `limit`, reported as a reclaim, and the number it removed as `StoreEvent.Kind.expiredValuesReclaimed`.
    public func removeExpiredValues(at date: Date, limit: Int) async throws -> [String] {
        let removed = try await reporter.callAsync(.reclaimExpired, nil) {
            try await base.removeExpiredValues(at: date, limit: limit)
        }
        reporter.reportReclaimed(removed.count)
        return removed
    }

    /// Returns the value stored for `key` or migrated from an older one, or nil when there is none or it does not
    /// decode; a migration that served it and a value that did not decode are reported.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)`` when the store cannot be read.
    public func get<T: Codable & Sendable>(_ key: KVKey<T>) async throws -> T? {
        let values = try await storedValues(of: key)
        do {
            return try events.value(of: key, in: values, readAsNil: true)
        } catch KVStoreError.decodingFailed {
            return nil
        }
    }

    /// Returns the value stored for `key`, as `AsyncKVStoring`'s `value(for:)`; a migration that served it and a
    /// value that did not decode are reported.
    ///
    /// - Throws: ``KVStoreError/decodingFailed(key:underlying:)`` or ``KVStoreError/readFailed(key:underlying:)``.
    public func value<T: Codable & Sendable>(for key: KVKey<T>) async throws -> T? {
        let values = try await storedValues(of: key)
        return try events.value(of: key, in: values, readAsNil: false)
    }
}

extension EventReportingAsyncKVStore: AsyncExpiringKVStoring where Base: AsyncExpiringKVStoring {}

extension EventReportingAsyncKVStore: AsyncKVStreaming where Base: AsyncKVStreaming {
    /// `base`'s stream of `key`, whose reads are not reported: see ``AsyncKVStreaming/stream(_:)``.
    public func stream<T: Codable & Sendable & Equatable>(_ key: KVKey<T>) -> AsyncStream<T?> { base.stream(key) }
}

extension AsyncKVBackend {
    /// This store, telling `handler` what it does.
    ///
    /// It tells each call to its storage, each value a read found that does not decode, each read a migration served.
    /// See ``EventReportingAsyncKVStore``.
    ///
    /// - Parameters:
    ///   - label: The name the events give the store, to tell it from the app's other stores.
    ///   - keyNames: How the events name keys and paths: in the clear (the default), by a keyed hash, or not at all;
    ///     give `.hashed` or `.omitted` when a key or path may be a secret. See `StoreEvent.KeyNames`.
    ///   - handler: Called with each event, synchronously, in the caller's task, at the end of each call.
    /// - Returns: The store, wrapped.
    public func reportingEvents(
        label: String = "kv",
        keyNames: StoreEvent.KeyNames = .clear,
        to handler: @escaping @Sendable (StoreEvent) -> Void
    ) -> EventReportingAsyncKVStore<Self> {
        EventReportingAsyncKVStore(self, label: label, keyNames: keyNames, handler: handler)
    }
}

extension EventReportingAsyncKVStore: TransactionalStore, InterceptingTransactionalStore
where Base: TransactionalKVStore {
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

extension EventReportingAsyncKVStore: TransactionalKVStore where Base: TransactionalKVStore {}
