package import ForgeCore
public import Foundation

/// A secret store seen through the seam: the store it wraps, with each call to that store's storage passing an
/// interceptor on the way. Events (`reportingEvents(label:to:)`) and a test's faults and operation log
/// (ForgeStorageTesting's `injectingFaults(_:log:label:)`) are the interceptors:
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
/// of ``CryptStoring`` and ``AsyncCryptStoring`` comes with it, and it keeps the wrapped store's transactions
/// (``TransactionalCrypt``). A secret that does not decode as the type asked for is thrown by the typed API above the
/// storage, and not reported. ``InterceptedAsyncCrypt`` is the same for an ``AsyncCryptBackend``.
public struct InterceptedCrypt<Base: CryptBackend>: Sendable {
    /// The store every call goes to.
    public let base: Base
    /// What each call to `base` passes.
    let interceptor: any StoreCallInterceptor

    /// Wraps `base`, each call passing `interceptor`.
    package init(_ base: Base, interceptor: any StoreCallInterceptor) {
        self.base = base
        self.interceptor = interceptor
    }
}

extension InterceptedCrypt: CryptStoring, CryptBackend {
    /// The bytes of `base`'s secret under `name`.
    public func storedSecret(named name: String) throws -> Data? {
        try interceptor.intercept(.readSecret(name)) { try base.storedSecret(named: name) }
    }

    /// Stores `secret` in `base`.
    public func store(_ secret: Data, named name: String) throws {
        try interceptor.intercept(.write(name, bytes: nil)) { try base.store(secret, named: name) }
    }

    /// Removes `name` from `base`.
    public func removeSecret(named name: String) throws {
        try interceptor.intercept(.delete(name)) { try base.removeSecret(named: name) }
    }

    /// Whether `base` holds a secret under `name`.
    public func hasSecret(named name: String) throws -> Bool {
        try interceptor.intercept(.exists(name)) { try base.hasSecret(named: name) }
    }

    /// `base`'s names.
    public func storedNames() throws -> [String] {
        try interceptor.intercept(.list(nil)) { try base.storedNames() }
    }

    /// The number of `base`'s secrets, as a listing.
    public func itemCount() throws -> Int {
        try interceptor.intercept(.list(nil)) { try base.itemCount() }
    }

    /// Removes every secret from `base`.
    public func removeAll() throws {
        try interceptor.intercept(.deleteAll) { try base.removeAll() }
    }
}

extension InterceptedCrypt: AsyncCryptStoring {}

extension InterceptedCrypt: TransactionalStore, InterceptingTransactionalStore where Base: TransactionalStore {
    /// The wrapped store's runner: a transaction stages this store's writes on the wrapped store.
    public var transactionRunner: any TransactionRunner { base.transactionRunner }

    /// The wrapped store, to which the runner applies this store's staged writes.
    public var transactionParticipant: any TransactionalStore { base.transactionParticipant }

    /// This store's interceptor, then the wrappers' below.
    package var stagedWriteInterceptors: [any StagedWriteInterceptor] {
        [interceptor] + base.interceptorsOfStagedWrites
    }
}

extension InterceptedCrypt: MasterKeyRotating where Base: MasterKeyRotating {
    /// Rotates the wrapped store's master key in place (see ``MasterKeyRotating/rotateMasterKey(to:progress:)``), one
    /// call through the interceptor (an event of its own; a test's fault fails it before it starts), and returns this
    /// store, which goes on with `newKey` as the wrapped store does.
    @discardableResult
    public func rotateMasterKey(
        to newKey: MasterKey,
        progress: (MasterKeyRotationStep) -> Void = { _ in }
    ) throws -> InterceptedCrypt {
        try interceptor.intercept(.rotateMasterKey) { _ = try base.rotateMasterKey(to: newKey, progress: progress) }
        return self
    }
}

extension InterceptedCrypt: AsyncMasterKeyRotating where Base: AsyncMasterKeyRotating {
    /// Rotates the wrapped store's master key in place through its asynchronous form (see
    /// ``AsyncMasterKeyRotating/rotateMasterKey(to:progress:)``), one call through the interceptor, and returns this
    /// store: the in-memory twin seen through the seam, standing in for a server's store.
    @discardableResult
    public nonisolated(nonsending) func rotateMasterKey(
        to newKey: MasterKey,
        progress: @escaping @Sendable (MasterKeyRotationStep) async -> Void
    ) async throws -> InterceptedCrypt {
        try await interceptor.interceptAsync(.rotateMasterKey) {
            _ = try await base.rotateMasterKey(to: newKey, progress: progress)
        }
        return self
    }
}
