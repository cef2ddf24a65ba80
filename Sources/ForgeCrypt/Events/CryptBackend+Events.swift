internal import ForgeCore

extension CryptBackend {
    /// This store, telling `handler` of each call it makes to its storage, in events that name no key and hold no
    /// secret.
    ///
    /// - Parameters:
    ///   - label: The name the events give the store, to tell it from the app's other stores.
    ///   - handler: Called with each event, synchronously, in the caller's task, at the end of each call.
    /// - Returns: The store seen through the seam, every capability kept; see ``InterceptedCrypt``.
    public func reportingEvents(
        label: String = "secrets",
        to handler: @escaping @Sendable (StoreEvent) -> Void
    ) -> InterceptedCrypt<Self> {
        InterceptedCrypt(self, interceptor: StoreEventReporter.secrets(label: label, handler: handler))
    }
}

extension AsyncCryptBackend {
    /// This store, telling `handler` of each call it makes to its storage, in events that name no key and hold no
    /// secret.
    ///
    /// - Parameters:
    ///   - label: The name the events give the store, to tell it from the app's other stores.
    ///   - handler: Called with each event, synchronously, in the caller's task, at the end of each call.
    /// - Returns: The store seen through the seam, every capability kept; see ``InterceptedAsyncCrypt``.
    public func reportingEvents(
        label: String = "secrets",
        to handler: @escaping @Sendable (StoreEvent) -> Void
    ) -> InterceptedAsyncCrypt<Self> {
        InterceptedAsyncCrypt(self, interceptor: StoreEventReporter.secrets(label: label, handler: handler))
    }
}

/// The earlier name of a secret store made by `reportingEvents(label:to:)`.
@available(*, deprecated, renamed: "InterceptedCrypt")
public typealias EventReportingCrypt<Base: CryptBackend> = InterceptedCrypt<Base>

/// The earlier name of an asynchronous secret store made by `reportingEvents(label:to:)`.
@available(*, deprecated, renamed: "InterceptedAsyncCrypt")
public typealias EventReportingAsyncCrypt<Base: AsyncCryptBackend> = InterceptedAsyncCrypt<Base>
