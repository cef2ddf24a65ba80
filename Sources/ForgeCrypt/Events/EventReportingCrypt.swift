public import Foundation
internal import ForgeCore

/// A secret store that tells a handler what it does, and otherwise is the store it wraps: each call to its storage
/// (when, how long, how it ended), as `StoreEvent`s that name no key and hold no secret.
///
/// Make one with `reportingEvents(label:to:)`, on any store built on ``CryptBackend``:
///
/// ```swift
/// let secrets = try EncryptedFileCrypt(namespace: "tokens", masterKey: .keyFile(keyFile))
///     .reportingEvents(label: "tokens") { event in print(event.operation, event.kind) }
/// try secrets.set("s3cr3t", for: CryptKey<String>("api.token"))   // reports a write, with no key and no size
/// ```
///
/// An event of a secret store keeps nothing a log must not hold: its `target` is nil whatever the key, a call's bytes
/// are nil (a secret's length says something of it), and a failure keeps its error's case and reason but not the
/// error, whose description names the key. It is a ``CryptBackend`` over the wrapped store's, so every requirement
/// of ``CryptStoring`` and ``AsyncCryptStoring`` comes with it, and it passes the conformance suites as the wrapped
/// store does. A secret that does not decode as the type asked for is thrown by the typed API above the storage, and
/// not reported.
public struct EventReportingCrypt<Base: CryptBackend>: Sendable {
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

extension EventReportingCrypt: CryptStoring, CryptBackend {
    /// `base`'s secret under `name`, reported as a read of no key.
    public func storedSecret(named name: String) throws -> Data? {
        try reporter.call(.read, nil) { try base.storedSecret(named: name) }
    }

    /// Stores `secret` in `base`, reported as a write of no key and no size.
    public func store(_ secret: Data, named name: String) throws {
        try reporter.call(.write, nil) { try base.store(secret, named: name) }
    }

    /// Removes `name` from `base`, reported as a remove of no key.
    public func removeSecret(named name: String) throws {
        try reporter.call(.delete, nil) { try base.removeSecret(named: name) }
    }

    /// Whether `base` holds `name`, reported as a check of no key.
    public func hasSecret(named name: String) throws -> Bool {
        try reporter.call(.exists, nil) { try base.hasSecret(named: name) }
    }

    /// `base`'s names, reported as a listing.
    public func storedNames() throws -> [String] {
        try reporter.call(.list, nil) { try base.storedNames() }
    }

    /// `base`'s count of its secrets, as `base` counts them, reported as a listing.
    public func itemCount() throws -> Int {
        try reporter.call(.list, nil) { try base.itemCount() }
    }

    /// Removes everything from `base`, reported as a removal of everything.
    public func removeAll() throws {
        try reporter.call(.deleteAll, nil) { try base.removeAll() }
    }
}

extension EventReportingCrypt: AsyncCryptStoring {}

extension CryptBackend {
    /// This store, telling `handler` of each call it makes to its storage, in events that name no key.
    ///
    /// The events hold no secret either. See ``EventReportingCrypt``.
    ///
    /// - Parameters:
    ///   - label: The name the events give the store, to tell it from the app's other stores.
    ///   - handler: Called with each event, synchronously, in the caller's task, at the end of each call.
    /// - Returns: The store, wrapped.
    public func reportingEvents(
        label: String = "secrets",
        to handler: @escaping @Sendable (StoreEvent) -> Void
    ) -> EventReportingCrypt<Self> {
        EventReportingCrypt(self, label: label, handler: handler)
    }
}

extension EventReportingCrypt: TransactionalStore, InterceptingTransactionalStore where Base: TransactionalCrypt {
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

extension EventReportingCrypt: TransactionalCrypt where Base: TransactionalCrypt {}
