public import Foundation
internal import ForgeCore

/// An asynchronous secret store (a server's, such as `PostgresCrypt`) that tells a handler what it does, in events
/// that name no key and hold no secret, and otherwise is the store it wraps: ``EventReportingCrypt`` for
/// ``AsyncCryptBackend``.
public struct EventReportingAsyncCrypt<Base: AsyncCryptBackend>: Sendable {
    /// The store every call goes to.
    public let base: Base
    /// Where the events go.
    let reporter: StoreEventReporter

    /// Wraps `base`, reporting to `handler` as the store `label`.
    init(_ base: Base, label: String, handler: @escaping @Sendable (StoreEvent) -> Void) {
        self.base = base
        self.reporter = .secrets(label: label, handler: handler)
    }
}

extension EventReportingAsyncCrypt: AsyncCryptStoring, AsyncCryptBackend {
    /// `base`'s secret under `name`, reported as a read of no key.
    public func storedSecret(named name: String) async throws -> Data? {
        try await reporter.callAsync(.read, nil) { try await base.storedSecret(named: name) }
    }

    /// Stores `secret` in `base`, reported as a write of no key and no size.
    public func store(_ secret: Data, named name: String) async throws {
        try await reporter.callAsync(.write, nil) { try await base.store(secret, named: name) }
    }

    /// Removes `name` from `base`, reported as a remove of no key.
    public func removeSecret(named name: String) async throws {
        try await reporter.callAsync(.delete, nil) { try await base.removeSecret(named: name) }
    }

    /// Whether `base` holds `name`, reported as a check of no key.
    public func hasSecret(named name: String) async throws -> Bool {
        try await reporter.callAsync(.exists, nil) { try await base.hasSecret(named: name) }
    }

    /// `base`'s names, reported as a listing.
    public func storedNames() async throws -> [String] {
        try await reporter.callAsync(.list, nil) { try await base.storedNames() }
    }

    /// `base`'s count of its secrets, as `base` counts them, reported as a listing.
    public func itemCount() async throws -> Int {
        try await reporter.callAsync(.list, nil) { try await base.itemCount() }
    }

    /// Removes everything from `base`, reported as a removal of everything.
    public func removeAll() async throws {
        try await reporter.callAsync(.deleteAll, nil) { try await base.removeAll() }
    }
}

extension AsyncCryptBackend {
    /// This store, telling `handler` of each call it makes to its storage, in events that name no key.
    ///
    /// The events hold no secret either. See ``EventReportingAsyncCrypt``.
    ///
    /// - Parameters:
    ///   - label: The name the events give the store, to tell it from the app's other stores.
    ///   - handler: Called with each event, synchronously, in the caller's task, at the end of each call.
    /// - Returns: The store, wrapped.
    public func reportingEvents(
        label: String = "secrets",
        to handler: @escaping @Sendable (StoreEvent) -> Void
    ) -> EventReportingAsyncCrypt<Self> {
        EventReportingAsyncCrypt(self, label: label, handler: handler)
    }
}

extension EventReportingAsyncCrypt: TransactionalStore, InterceptingTransactionalStore where Base: TransactionalCrypt {
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

extension EventReportingAsyncCrypt: TransactionalCrypt where Base: TransactionalCrypt {}
