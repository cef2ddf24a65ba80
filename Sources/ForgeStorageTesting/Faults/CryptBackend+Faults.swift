internal import ForgeCore
public import ForgeCrypt

extension CryptBackend {
    /// This store, with the faults of `faults` injected before each call it makes to its storage, and each call logged
    /// to `log` as the store `label`: what `InMemoryCrypt(label:faults:log:)` does for the in-memory twin, for every
    /// other store.
    ///
    /// A fault fails a call as a locked device fails the Keychain, or a full disk the vault, whatever the store
    /// underneath:
    ///
    /// ```swift
    /// let faults = StoreFaults()
    /// let secrets = try EncryptedFileCrypt(directory: .custom(folder), namespace: "vault", masterKey: key)
    ///     .injectingFaults(faults)
    /// faults.failNext(.read, with: .deviceLocked)
    /// #expect(throws: CryptStoreError.self) { try secrets.get(AuthKeys.token) }
    /// ```
    ///
    /// - Returns: The store seen through the seam, every capability kept; see `InterceptedCrypt`.
    public func injectingFaults(
        _ faults: StoreFaults? = nil,
        log: OperationLog? = nil,
        label: String = "secrets"
    ) -> InterceptedCrypt<Self> {
        InterceptedCrypt(
            self,
            interceptor: CryptFaultPoint(StoreInstrumentation.make(label: label, faults: faults, log: log))
        )
    }
}

extension AsyncCryptBackend {
    /// This store, with the faults of `faults` injected before each call it makes to its storage, and each call logged
    /// to `log` as the store `label`; see `CryptBackend.injectingFaults(_:log:label:)`.
    ///
    /// - Returns: The store seen through the seam, every capability kept; see `InterceptedAsyncCrypt`.
    public func injectingFaults(
        _ faults: StoreFaults? = nil,
        log: OperationLog? = nil,
        label: String = "secrets"
    ) -> InterceptedAsyncCrypt<Self> {
        let point = CryptFaultPoint(StoreInstrumentation.make(label: label, faults: faults, log: log))
        return InterceptedAsyncCrypt(self, interceptor: point)
    }
}

/// The earlier name of a secret store made by `injectingFaults(_:log:label:)`.
@available(*, deprecated, renamed: "InterceptedCrypt")
public typealias FaultInjectingCrypt<Base: CryptBackend> = InterceptedCrypt<Base>

/// The earlier name of an asynchronous secret store made by `injectingFaults(_:log:label:)`.
@available(*, deprecated, renamed: "InterceptedAsyncCrypt")
public typealias FaultInjectingAsyncCrypt<Base: AsyncCryptBackend> = InterceptedAsyncCrypt<Base>
