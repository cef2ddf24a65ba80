package import ForgeCore
public import Foundation

/// An asynchronous key-value store (a server's, such as `PostgresKVStore`) seen through the seam:
/// ``InterceptedKVStore`` for an ``AsyncKVBackend``.
///
/// Each call to the server is one call through the interceptor, a read of a key and of its migrations' older names
/// included; an event's handler runs in the caller's task when the call returns, so a tracing span made from the
/// event finds the caller's context. It keeps the wrapped store's lifetimes, transactions and streams.
public struct InterceptedAsyncKVStore<Base: AsyncKVBackend>: Sendable {
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

extension InterceptedAsyncKVStore: AsyncKVStoring, AsyncKVBackend {
    /// `base`'s values under `names`, as one call for the first name, the key's own.
    public nonisolated(nonsending) func storedValues(named names: [String]) async throws -> [String: KVStoredValue] {
        try await interceptor.interceptAsync(.read(names)) { try await base.storedValues(named: names) }
    }

    /// Stores `value` in `base`.
    public nonisolated(nonsending) func store(_ value: KVStoredValue, named name: String) async throws {
        try await interceptor.interceptAsync(.write(name, bytes: value.byteCount)) {
            try await base.store(value, named: name)
        }
    }

    /// Stores `value` in `base` unless `name` holds a value live at `date`, as one write.
    public nonisolated(nonsending) func storeIfAbsent(
        _ value: KVStoredValue,
        named name: String,
        liveAt date: Date
    ) async throws -> Bool {
        try await interceptor.interceptAsync(.write(name, bytes: value.byteCount)) {
            try await base.storeIfAbsent(value, named: name, liveAt: date)
        }
    }

    /// Removes `names` from `base`, as one call for the last name, the key's own.
    public nonisolated(nonsending) func removeValues(named names: [String]) async throws {
        try await interceptor.interceptAsync(.delete(names.last)) { try await base.removeValues(named: names) }
    }

    /// Whether `base` holds any of `names`, as one check of the first, the key's own.
    public nonisolated(nonsending) func hasValue(named names: [String]) async throws -> Bool {
        try await interceptor.interceptAsync(.exists(names.first)) { try await base.hasValue(named: names) }
    }

    /// `base`'s names.
    public nonisolated(nonsending) func storedNames() async throws -> [String] {
        try await interceptor.interceptAsync(.list(nil)) { try await base.storedNames() }
    }

    /// Removes everything from `base`.
    public nonisolated(nonsending) func removeAll() async throws {
        try await interceptor.interceptAsync(.deleteAll) { try await base.removeAll() }
    }

    /// `base`'s way of keeping values with a lifetime.
    public var expiry: KVExpiry? { base.expiry }

    /// `base`'s names that hold a value not expired at `date`.
    public nonisolated(nonsending) func storedNames(liveAt date: Date) async throws -> [String] {
        try await interceptor.interceptAsync(.list(nil)) { try await base.storedNames(liveAt: date) }
    }

    /// Removes `base`'s values expired at `date`, up to `limit`; events report the number removed as
    /// `StoreEvent.Kind.expiredValuesReclaimed`.
    public nonisolated(nonsending) func removeExpiredValues(at date: Date, limit: Int) async throws -> [String] {
        let removed = try await interceptor.interceptAsync(.reclaimExpired) {
            try await base.removeExpiredValues(at: date, limit: limit)
        }
        interceptor.didReclaim(removed.count)
        return removed
    }

    /// Returns the value stored for `key` or migrated from an older one, or nil when there is none or it does not
    /// decode; events report a migration that served it and a value that did not decode.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)`` when the store cannot be read.
    public nonisolated(nonsending) func get<T: Codable & Sendable>(_ key: KVKey<T>) async throws -> T? {
        let values = try await storedValues(of: key)
        do {
            return try reads.value(of: key, in: values, readAsNil: true)
        } catch KVStoreError.decodingFailed {
            return nil
        }
    }

    /// Returns the value stored for `key`, as `AsyncKVStoring`'s `value(for:)`; events report a migration that served
    /// it and a value that did not decode.
    ///
    /// - Throws: ``KVStoreError/decodingFailed(key:underlying:)`` or ``KVStoreError/readFailed(key:underlying:)``.
    public nonisolated(nonsending) func value<T: Codable & Sendable>(for key: KVKey<T>) async throws -> T? {
        try reads.value(of: key, in: await storedValues(of: key), readAsNil: false)
    }
}

extension InterceptedAsyncKVStore: AsyncExpiringKVStoring where Base: AsyncExpiringKVStoring {}

extension InterceptedAsyncKVStore: AsyncKVStreaming where Base: AsyncKVStreaming {
    /// `base`'s stream of `key`, whose reads pass no interceptor: see ``AsyncKVStreaming/stream(_:)``.
    public func stream<T: Codable & Sendable & Equatable>(_ key: KVKey<T>) -> AsyncStream<T?> { base.stream(key) }
}

extension InterceptedAsyncKVStore: TransactionalStore, InterceptingTransactionalStore
where Base: TransactionalStore {
    /// The wrapped store's runner: a transaction stages this store's writes on the wrapped store.
    public var transactionRunner: any TransactionRunner { base.transactionRunner }

    /// The wrapped store, to which the runner applies this store's staged writes.
    public var transactionParticipant: any TransactionalStore { base.transactionParticipant }

    /// This store's interceptor, then the wrappers' below.
    package var stagedWriteInterceptors: [any StagedWriteInterceptor] {
        [interceptor] + base.interceptorsOfStagedWrites
    }
}
