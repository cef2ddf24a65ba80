internal import ForgeCore
public import ForgeKVStore

extension KVBackend {
    /// This store, with the faults of `faults` injected before each call it makes to its storage, and each call logged
    /// to `log` as the store `label`: what `InMemoryKVStore(label:faults:log:)` does for the in-memory twin, for every
    /// other store.
    ///
    /// A fault fails a call as a full disk or a denied permission fails `DiskKVStore`, whatever the store underneath,
    /// so a service's failure paths can be tested on the store it runs on in production:
    ///
    /// ```swift
    /// let faults = StoreFaults()
    /// let store = DiskKVStore(directory: .custom(folder), namespace: "settings").injectingFaults(faults)
    /// faults.failNext(.write, with: .outOfSpace)
    /// #expect(throws: KVStoreError.self) { try store.set(TaskKeys.taskCount, value: 1) }
    /// ```
    ///
    /// - Returns: The store seen through the seam, every capability kept; see `InterceptedKVStore`.
    public func injectingFaults(
        _ faults: StoreFaults? = nil,
        log: OperationLog? = nil,
        label: String = "kv"
    ) -> InterceptedKVStore<Self> {
        InterceptedKVStore(
            self,
            interceptor: KVFaultPoint(StoreInstrumentation.make(label: label, faults: faults, log: log))
        )
    }
}

extension AsyncKVBackend {
    /// This store, with the faults of `faults` injected before each call it makes to its storage, and each call logged
    /// to `log` as the store `label`; see `KVBackend.injectingFaults(_:log:label:)`.
    ///
    /// - Returns: The store seen through the seam, every capability kept; see `InterceptedAsyncKVStore`.
    public func injectingFaults(
        _ faults: StoreFaults? = nil,
        log: OperationLog? = nil,
        label: String = "kv"
    ) -> InterceptedAsyncKVStore<Self> {
        let point = KVFaultPoint(StoreInstrumentation.make(label: label, faults: faults, log: log))
        return InterceptedAsyncKVStore(self, interceptor: point)
    }
}

/// The earlier name of a key-value store made by `injectingFaults(_:log:label:)`.
@available(*, deprecated, renamed: "InterceptedKVStore")
public typealias FaultInjectingKVStore<Base: KVBackend> = InterceptedKVStore<Base>

/// The earlier name of an asynchronous key-value store made by `injectingFaults(_:log:label:)`.
@available(*, deprecated, renamed: "InterceptedAsyncKVStore")
public typealias FaultInjectingAsyncKVStore<Base: AsyncKVBackend> = InterceptedAsyncKVStore<Base>
