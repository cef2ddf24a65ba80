internal import ForgeCore

extension KVBackend {
    /// This store, telling `handler` what it does: each call to its storage (how long it took, the bytes it read or
    /// wrote, how it ended), each value a read found that does not decode, each read a migration served, as
    /// `StoreEvent`s.
    ///
    /// ```swift
    /// let settings = DiskKVStore(namespace: "settings").reportingEvents(label: "settings") { event in
    ///     print(event.operation, event.target ?? "", event.kind)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - label: The name the events give the store, to tell it from the app's other stores.
    ///   - keyNames: How the events name keys and paths: in the clear (the default), by a keyed hash, or not at all;
    ///     give `.hashed` or `.omitted` when a key or path may be a secret. See `StoreEvent.KeyNames`.
    ///   - handler: Called with each event, synchronously, in the caller's task, at the end of each call.
    /// - Returns: The store seen through the seam, every capability kept; see ``InterceptedKVStore``.
    public func reportingEvents(
        label: String = "kv",
        keyNames: StoreEvent.KeyNames = .clear,
        to handler: @escaping @Sendable (StoreEvent) -> Void
    ) -> InterceptedKVStore<Self> {
        let reporter = StoreEventReporter.keyValue(label: label, keyNames: keyNames, handler: handler)
        return InterceptedKVStore(self, interceptor: reporter, reporter: reporter)
    }
}

extension AsyncKVBackend {
    /// This store, telling `handler` what it does.
    ///
    /// Each call to its storage, each value a read found that does not decode, each read a migration served. See
    /// ``KVBackend/reportingEvents(label:keyNames:to:)``.
    ///
    /// - Parameters:
    ///   - label: The name the events give the store, to tell it from the app's other stores.
    ///   - keyNames: How the events name keys and paths: in the clear (the default), by a keyed hash, or not at all.
    ///   - handler: Called with each event, synchronously, in the caller's task, at the end of each call.
    /// - Returns: The store seen through the seam, every capability kept; see ``InterceptedAsyncKVStore``.
    public func reportingEvents(
        label: String = "kv",
        keyNames: StoreEvent.KeyNames = .clear,
        to handler: @escaping @Sendable (StoreEvent) -> Void
    ) -> InterceptedAsyncKVStore<Self> {
        let reporter = StoreEventReporter.keyValue(label: label, keyNames: keyNames, handler: handler)
        return InterceptedAsyncKVStore(self, interceptor: reporter, reporter: reporter)
    }
}

/// The earlier name of a key-value store made by `reportingEvents(label:keyNames:to:)`.
@available(*, deprecated, renamed: "InterceptedKVStore")
public typealias EventReportingKVStore<Base: KVBackend> = InterceptedKVStore<Base>

/// The earlier name of an asynchronous key-value store made by `reportingEvents(label:keyNames:to:)`.
@available(*, deprecated, renamed: "InterceptedAsyncKVStore")
public typealias EventReportingAsyncKVStore<Base: AsyncKVBackend> = InterceptedAsyncKVStore<Base>
