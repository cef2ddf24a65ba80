internal import ForgeCore
public import ForgeCrypt
public import Foundation

/// Any secret store with a test's faults injected before each call it makes to its storage, and each call logged:
/// what `InMemoryCrypt(label:faults:log:)` does for the in-memory twin, for every other store.
///
/// A fault fails a call as a locked device fails the Keychain, or a full disk the vault, whatever the store underneath:
///
/// ```swift
/// let faults = StoreFaults()
/// let secrets = try EncryptedFileCrypt(directory: .custom(folder), namespace: "vault", masterKey: key)
///     .injectingFaults(faults)
/// faults.failNext(.read, with: .deviceLocked)
/// #expect(throws: CryptStoreError.self) { try secrets.get(AuthKeys.token) }
/// ```
public struct FaultInjectingCrypt<Base: CryptBackend>: Sendable {
    /// The store every call goes to, once its fault, if any, has been injected.
    public let base: Base
    /// Where the faults enter.
    let faults: CryptFaultPoint

    /// Wraps `base`, taking faults from `faults` and logging each call to `log` as the store `label`.
    init(_ base: Base, label: String, faults: StoreFaults?, log: OperationLog?) {
        self.base = base
        self.faults = CryptFaultPoint(StoreInstrumentation.make(label: label, faults: faults, log: log))
    }
}

extension FaultInjectingCrypt: CryptStoring, CryptBackend {
    /// `base`'s secret under `name`, unless a fault fails the read; a fault that damages it fails authentication.
    public func storedSecret(named name: String) throws -> Data? {
        let damaged = try faults.read(name)
        guard let secret = try base.storedSecret(named: name) else { return nil }
        if damaged { throw CryptStoreError.tamperedItem(key: name) }
        return secret
    }

    /// Stores `secret` in `base`, unless a fault fails the write.
    public func store(_ secret: Data, named name: String) throws {
        try faults.write(name)
        try base.store(secret, named: name)
    }

    /// Removes `name` from `base`, unless a fault fails the removal.
    public func removeSecret(named name: String) throws {
        try faults.remove(name)
        try base.removeSecret(named: name)
    }

    /// Whether `base` holds `name`; false when a fault hides it.
    public func hasSecret(named name: String) throws -> Bool {
        if try faults.hides(name) { return false }
        return try base.hasSecret(named: name)
    }

    /// `base`'s names, unless a fault fails the listing.
    public func storedNames() throws -> [String] {
        try faults.list()
        return try base.storedNames()
    }

    /// `base`'s count of its secrets, unless a fault fails it as it fails a listing.
    public func itemCount() throws -> Int {
        try faults.list()
        return try base.itemCount()
    }

    /// Removes everything from `base`, unless a fault fails it.
    public func removeAll() throws {
        try faults.removeAll()
        try base.removeAll()
    }
}

extension FaultInjectingCrypt: AsyncCryptStoring {}

extension CryptBackend {
    /// This store, with the faults of `faults` injected before each call it makes to its storage, and each call logged
    /// to `log` as the store `label`.
    public func injectingFaults(
        _ faults: StoreFaults? = nil,
        log: OperationLog? = nil,
        label: String = "secrets"
    ) -> FaultInjectingCrypt<Self> {
        FaultInjectingCrypt(self, label: label, faults: faults, log: log)
    }
}

extension FaultInjectingCrypt: TransactionalStore, InterceptingTransactionalStore where Base: TransactionalCrypt {
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

extension FaultInjectingCrypt: TransactionalCrypt where Base: TransactionalCrypt {}
