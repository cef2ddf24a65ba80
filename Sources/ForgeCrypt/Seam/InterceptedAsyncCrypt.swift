package import ForgeCore
public import Foundation

/// An asynchronous secret store (a server's, such as `PostgresCrypt`) seen through the seam.
///
/// ``InterceptedCrypt`` for an ``AsyncCryptBackend``, its events naming no key and holding no secret. It keeps the wrapped store's
/// transactions.
public struct InterceptedAsyncCrypt<Base: AsyncCryptBackend>: Sendable {
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

extension InterceptedAsyncCrypt: AsyncCryptStoring, AsyncCryptBackend {
    /// The bytes of `base`'s secret under `name`.
    public nonisolated(nonsending) func storedSecret(named name: String) async throws -> Data? {
        try await interceptor.interceptAsync(.readSecret(name)) { try await base.storedSecret(named: name) }
    }

    /// Stores `secret` in `base`.
    public nonisolated(nonsending) func store(_ secret: Data, named name: String) async throws {
        try await interceptor.interceptAsync(.write(name, bytes: nil)) { try await base.store(secret, named: name) }
    }

    /// Removes `name` from `base`.
    public nonisolated(nonsending) func removeSecret(named name: String) async throws {
        try await interceptor.interceptAsync(.delete(name)) { try await base.removeSecret(named: name) }
    }

    /// Whether `base` holds a secret under `name`.
    public nonisolated(nonsending) func hasSecret(named name: String) async throws -> Bool {
        try await interceptor.interceptAsync(.exists(name)) { try await base.hasSecret(named: name) }
    }

    /// `base`'s names.
    public nonisolated(nonsending) func storedNames() async throws -> [String] {
        try await interceptor.interceptAsync(.list(nil)) { try await base.storedNames() }
    }

    /// The number of `base`'s secrets, as a listing.
    public nonisolated(nonsending) func itemCount() async throws -> Int {
        try await interceptor.interceptAsync(.list(nil)) { try await base.itemCount() }
    }

    /// Removes every secret from `base`.
    public nonisolated(nonsending) func removeAll() async throws {
        try await interceptor.interceptAsync(.deleteAll) { try await base.removeAll() }
    }
}

extension InterceptedAsyncCrypt: TransactionalStore, InterceptingTransactionalStore
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

extension InterceptedAsyncCrypt: AsyncMasterKeyRotating where Base: AsyncMasterKeyRotating {
    /// Rotates the wrapped store's master key in place (see
    /// ``AsyncMasterKeyRotating/rotateMasterKey(to:progress:)``), one call through the interceptor, and returns this
    /// store, which goes on with `newKey` as the wrapped store does.
    @discardableResult
    public nonisolated(nonsending) func rotateMasterKey(
        to newKey: MasterKey,
        progress: @escaping @Sendable (MasterKeyRotationStep) async -> Void = { _ in }
    ) async throws -> InterceptedAsyncCrypt {
        try await interceptor.interceptAsync(.rotateMasterKey) {
            _ = try await base.rotateMasterKey(to: newKey, progress: progress)
        }
        return self
    }
}
