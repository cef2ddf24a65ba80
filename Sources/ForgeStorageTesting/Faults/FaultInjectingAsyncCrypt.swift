public import ForgeCrypt
public import Foundation
internal import ForgeCore

/// Any asynchronous secret store (such as `PostgresCrypt`) with a test's faults injected before each call it makes to
/// its storage, and each call logged: ``FaultInjectingCrypt`` for `AsyncCryptBackend`.
public struct FaultInjectingAsyncCrypt<Base: AsyncCryptBackend>: Sendable {
    /// The store every call goes to, once its fault, if any, has been injected.
    public let base: Base
    /// Where the faults enter.
    let faults: CryptFaultPoint
}

extension FaultInjectingAsyncCrypt: AsyncCryptStoring, AsyncCryptBackend {
    /// `base`'s secret under `name`, unless a fault fails the read; a fault that damages it fails authentication.
    public func storedSecret(named name: String) async throws -> Data? {
        let damaged = try faults.read(name)
        guard let secret = try await base.storedSecret(named: name) else { return nil }
        if damaged { throw CryptStoreError.tamperedItem(key: name) }
        return secret
    }

    /// Stores `secret` in `base`, unless a fault fails the write.
    public func store(_ secret: Data, named name: String) async throws {
        try faults.write(name)
        try await base.store(secret, named: name)
    }

    /// Removes `name` from `base`, unless a fault fails the removal.
    public func removeSecret(named name: String) async throws {
        try faults.remove(name)
        try await base.removeSecret(named: name)
    }

    /// Whether `base` holds `name`; false when a fault hides it.
    public func hasSecret(named name: String) async throws -> Bool {
        if try faults.hides(name) { return false }
        return try await base.hasSecret(named: name)
    }

    /// `base`'s names, unless a fault fails the listing.
    public func storedNames() async throws -> [String] {
        try faults.list()
        return try await base.storedNames()
    }

    /// `base`'s count of its secrets, unless a fault fails it as it fails a listing.
    public func itemCount() async throws -> Int {
        try faults.list()
        return try await base.itemCount()
    }

    /// Removes everything from `base`, unless a fault fails it.
    public func removeAll() async throws {
        try faults.removeAll()
        try await base.removeAll()
    }
}

extension AsyncCryptBackend {
    /// This store, with the faults of `faults` injected before each call it makes to its storage, and each call logged
    /// to `log` as the store `label`.
    public func injectingFaults(
        _ faults: StoreFaults? = nil,
        log: OperationLog? = nil,
        label: String = "secrets"
    ) -> FaultInjectingAsyncCrypt<Self> {
        FaultInjectingAsyncCrypt(
            base: self,
            faults: CryptFaultPoint(StoreInstrumentation.make(label: label, faults: faults, log: log))
        )
    }
}

extension FaultInjectingAsyncCrypt: TransactionalStore, InterceptingTransactionalStore where Base: TransactionalCrypt {
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

extension FaultInjectingAsyncCrypt: TransactionalCrypt where Base: TransactionalCrypt {}
