internal import ForgeCore
public import ForgeFileStore

extension FileBackend {
    /// This store, with the faults of `faults` injected before each call it makes to its storage, and each call logged
    /// to `log` as the store `label`.
    ///
    /// What `InMemoryFileStore(label:faults:log:)` does for the in-memory twin, for every other store: a fault fails a
    /// call as it fails `DiskFileStore`.
    ///
    /// - Returns: The store seen through the seam, every capability kept; see `InterceptedFileStore`.
    public func injectingFaults(
        _ faults: StoreFaults? = nil,
        log: OperationLog? = nil,
        label: String = "files"
    ) -> InterceptedFileStore<Self> {
        InterceptedFileStore(
            self,
            interceptor: FileFaultPoint(StoreInstrumentation.make(label: label, faults: faults, log: log))
        )
    }
}

extension AsyncFileBackend {
    /// This store, with the faults of `faults` injected before each call it makes to its storage, and each call logged
    /// to `log` as the store `label`; see `FileBackend.injectingFaults(_:log:label:)`.
    ///
    /// - Returns: The store seen through the seam, every capability kept; see `InterceptedAsyncFileStore`.
    public func injectingFaults(
        _ faults: StoreFaults? = nil,
        log: OperationLog? = nil,
        label: String = "files"
    ) -> InterceptedAsyncFileStore<Self> {
        let point = FileFaultPoint(StoreInstrumentation.make(label: label, faults: faults, log: log))
        return InterceptedAsyncFileStore(self, interceptor: point)
    }
}

/// The earlier name of a file store made by `injectingFaults(_:log:label:)`.
@available(*, deprecated, renamed: "InterceptedFileStore")
public typealias FaultInjectingFileStore<Base: FileBackend> = InterceptedFileStore<Base>

/// The earlier name of an asynchronous file store made by `injectingFaults(_:log:label:)`.
@available(*, deprecated, renamed: "InterceptedAsyncFileStore")
public typealias FaultInjectingAsyncFileStore<Base: AsyncFileBackend> = InterceptedAsyncFileStore<Base>
