/// What stands between a store seen through the seam and the store it wraps: events, or a test's faults and
/// operation log.
///
/// Each kind has one wrapper per form (`InterceptedKVStore`, `InterceptedAsyncKVStore` and their file and secret
/// siblings); every call it makes to the store it wraps passes its interceptor, and so does every change a transaction
/// stages through it (``StagedWriteInterceptor``). An interceptor is written once for every kind and form.
package protocol StoreCallInterceptor: StagedWriteInterceptor {
    /// Runs `body`, the call `call` describes, and returns or throws what it does, or what this interceptor makes of
    /// it (a fault that fails, damages or hides).
    func intercept<Result>(_ call: StoreCall<Result>, _ body: () throws -> Result) throws -> Result

    /// Runs `body`, the asynchronous call `call` describes, where its caller runs; see ``intercept(_:_:)``.
    nonisolated(nonsending) func interceptAsync<Result>(
        _ call: StoreCall<Result>,
        _ body: nonisolated(nonsending) () async throws -> Result
    ) async throws -> Result

    /// Runs `body`, an existence check that cannot throw, and answers what it does or what this interceptor makes of
    /// it (false for a target a fault hides).
    func check(_ call: StoreCall<Bool>, _ body: () -> Bool) -> Bool

    /// Tells the interceptor that a reclaim removed `count` expired values.
    func didReclaim(_ count: Int)

    /// Whether an inspection of the whole store (a file store's `allFiles()`) is made of the wrapper's own calls, each
    /// passing this interceptor, as the in-memory twin's is (faults: each folder's listing and each file's look meet
    /// theirs), rather than made as one call (events).
    var walksTheStoreCallByCall: Bool { get }
}
