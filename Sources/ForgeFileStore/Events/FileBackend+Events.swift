internal import ForgeCore

extension FileBackend {
    /// This store, telling `handler` of each call it makes to its storage: how long it took, the bytes it read or
    /// wrote, how it ended, as `StoreEvent`s naming the file's path.
    ///
    /// - Parameters:
    ///   - label: The name the events give the store, to tell it from the app's other stores.
    ///   - keyNames: How the events name keys and paths: in the clear (the default), by a keyed hash, or not at all;
    ///     give `.hashed` or `.omitted` when a key or path may be a secret. See `StoreEvent.KeyNames`.
    ///   - handler: Called with each event, synchronously, in the caller's task, at the end of each call.
    /// - Returns: The store seen through the seam, every capability kept; see ``InterceptedFileStore``.
    public func reportingEvents(
        label: String = "files",
        keyNames: StoreEvent.KeyNames = .clear,
        to handler: @escaping @Sendable (StoreEvent) -> Void
    ) -> InterceptedFileStore<Self> {
        InterceptedFileStore(
            self,
            interceptor: StoreEventReporter.files(label: label, keyNames: keyNames, handler: handler)
        )
    }
}

extension AsyncFileBackend {
    /// This store, telling `handler` of each call it makes to its storage; see
    /// ``FileBackend/reportingEvents(label:keyNames:to:)``.
    ///
    /// - Parameters:
    ///   - label: The name the events give the store, to tell it from the app's other stores.
    ///   - keyNames: How the events name keys and paths: in the clear (the default), by a keyed hash, or not at all.
    ///   - handler: Called with each event, synchronously, in the caller's task, at the end of each call.
    /// - Returns: The store seen through the seam, every capability kept; see ``InterceptedAsyncFileStore``.
    public func reportingEvents(
        label: String = "files",
        keyNames: StoreEvent.KeyNames = .clear,
        to handler: @escaping @Sendable (StoreEvent) -> Void
    ) -> InterceptedAsyncFileStore<Self> {
        let reporter = StoreEventReporter.files(label: label, keyNames: keyNames, handler: handler)
        return InterceptedAsyncFileStore(self, interceptor: reporter)
    }
}

/// The earlier name of a file store made by `reportingEvents(label:keyNames:to:)`.
@available(*, deprecated, renamed: "InterceptedFileStore")
public typealias EventReportingFileStore<Base: FileBackend> = InterceptedFileStore<Base>

/// The earlier name of an asynchronous file store made by `reportingEvents(label:keyNames:to:)`.
@available(*, deprecated, renamed: "InterceptedAsyncFileStore")
public typealias EventReportingAsyncFileStore<Base: AsyncFileBackend> = InterceptedAsyncFileStore<Base>
