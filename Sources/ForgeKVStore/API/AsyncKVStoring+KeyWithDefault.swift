/// The reads and writes of a ``KVKeyWithDefault``, written once for every ``AsyncKVStoring`` store over the
/// requirements that take its ``KVKeyWithDefault/withoutDefault`` key.
extension AsyncKVStoring {
    /// Returns the value stored for `key`, or its default when nothing is stored or what is stored does not decode
    /// as `T`, even through the key's migrations.
    ///
    /// It reads through the key without its default with `get(_:)`, so a store made by
    /// `reportingDecodingFailures(to:)` reports a value that does not decode before the default is returned.
    ///
    /// A store that is both ``KVStoring`` and ``AsyncKVStoring`` (the library's own stores are) has this form and the
    /// synchronous one. In an `async` function Swift chooses this one, which needs `try await`
    /// (`try await store.get(TaskKeys.onboarding)`); a store held as `any KVStoring` has only the synchronous one.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)`` when the store cannot be read.
    public func get<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws -> T {
        try await get(key.withoutDefault) ?? key.defaultValue
    }

    /// Returns the value stored for `key`, read as a `T` or migrated from what an older version stored; nil when
    /// nothing is stored, whatever the key's default.
    ///
    /// - Throws: ``KVStoreError/decodingFailed(key:underlying:)`` or ``KVStoreError/readFailed(key:underlying:)``.
    public func value<T: Codable & Sendable>(for key: KVKeyWithDefault<T>) async throws -> T? {
        try await value(for: key.withoutDefault)
    }

    /// Stores `value` for `key`, replacing any previous value; a value equal to the default is stored too.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` or ``KVStoreError/writeFailed(key:underlying:)``;
    ///   the previous value is kept either way.
    public func set<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>, value: T) async throws {
        try await set(key.withoutDefault, value: value)
    }

    /// Removes the value stored for `key`, and those under the older names its migrations read, so that reads
    /// return its default again.
    ///
    /// - Throws: ``KVStoreError/removeFailed(key:underlying:)``.
    public func remove<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws {
        try await remove(key.withoutDefault)
    }

    /// Returns true when a value is stored for `key` (or under an older name its migrations read), even one equal
    /// to its default; false when reads return the default because nothing is stored.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)`` when the store cannot be read.
    public func contains<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws -> Bool {
        try await contains(key.withoutDefault)
    }
}

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
