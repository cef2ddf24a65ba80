/// The stream of a ``KVKeyWithDefault``, written once for every ``AsyncKVStreaming`` store over its stream of the key
/// without its default.
extension AsyncKVStreaming {
    /// A stream of the value of `key`: what is stored, or the key's default when nothing is (or it does not decode),
    /// first the current value, then the value after each change the store can see.
    ///
    /// ```swift
    /// for await done in settings.stream(TaskKeys.onboarding) {   // false, until a value is stored
    ///     showOnboarding = !done
    /// }
    /// ```
    ///
    /// It is the stream of the key without its default (see `stream(_:)` for a ``KVKey``), nil read as the default,
    /// and keeps that stream's promises: it listens when it is returned, and its last value is what the store holds.
    /// It skips a value stored identically to the one before it (``KVStreamFilter``) after the default takes the
    /// place of nil, so a change between nothing stored and a stored value identical to the default (its first
    /// `set`, or its `remove`) emits nothing: the value read did not change. Use `contains(_:)` to tell them apart.
    /// It ends when the consuming task is cancelled.
    public func stream<T: Codable & Sendable & Equatable>(_ key: KVKeyWithDefault<T>) -> AsyncStream<T> {
        let values = stream(key.withoutDefault)
        let defaultValue = key.defaultValue
        let (stream, continuation) = AsyncStream<T>.makeStream(bufferingPolicy: .unbounded)
        let forwarding = Task {
            var filter = KVStreamFilter<T>()
            for await value in values {
                let read = value ?? defaultValue
                if filter.admits(read) { continuation.yield(read) }
            }
            continuation.finish()
        }
        // Ending this stream cancels the task, which ends the stream of the key without its default.
        continuation.onTermination = { _ in forwarding.cancel() }
        return stream
    }
}
