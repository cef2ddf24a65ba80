/// The asynchronous form of ``KVStoring``: the same operations and rules, each `async throws`, so that a store
/// behind a network (a database shared by several servers) can answer without blocking a thread.
///
/// Write a service against this protocol and it runs on every store: the synchronous stores of this module conform
/// as they are (a synchronous call meets an asynchronous requirement), and a network store conforms with calls
/// that suspend.
///
/// ```swift
/// struct TaskCounter {
///     let store: any AsyncKVStoring
///
///     func countTask() async throws -> Int {
///         let count = (try await store.value(for: TaskKeys.taskCount) ?? 0) + 1
///         try await store.set(TaskKeys.taskCount, value: count)
///         return count
///     }
/// }
/// ```
///
/// Every requirement means what the ``KVStoring`` requirement of the same name means, with one addition: a store
/// that can fail to reach its storage (a dropped connection) throws from `get(_:)` and `contains(_:)` too,
/// with ``KVStoreError/readFailed(key:underlying:)``, rather than answer nil or false for a value it could not
/// read. `get(_:)` still reads a value that does not decode as nil.
///
/// Streams are ``AsyncKVStreaming``: `PostgresKVStore` has them, and any store gains them wrapped in a
/// ``ReactiveKVStore`` (`ReactiveKVStore(DiskKVStore(namespace: "settings"))`), which also sees changes made by other
/// handles and processes where its store can watch for them. A store of your own declares this protocol beside
/// ``AsyncKVBackend`` (or `KVStoring` and this protocol beside ``KVBackend``), and gets every requirement here from the
/// library.
///
/// ## Keys with a default
/// The five requirements that take a ``KVKeyWithDefault`` mean what `KVStoring`'s methods of the same name mean. A
/// store that is also `KVStoring` meets them with those synchronous methods, and a store on ``AsyncKVBackend`` with
/// the library's implementation, so neither writes them. They are requirements, not extension methods, so that a
/// concrete store type that is both protocols (``InMemoryKVStore``, ``DiskKVStore``, ``ReactiveKVStore``) has one
/// `get` of a key with a default, which an `async` function calls without `await` as it calls `get` of a ``KVKey``.
/// Where both forms are in view, as in generic code constrained to both protocols, an `any KVStoring & AsyncKVStoring`
/// or a ``ReportingKVStore``, an `async` function calls the asynchronous form, with `try await`, for either kind of
/// key. A store written against this protocol's requirements alone implements
/// them by calling the requirement of the same name with the key's ``KVKeyWithDefault/withoutDefault``, its `get`
/// answering ``KVKeyWithDefault/defaultValue`` for nil:
///
/// ```swift
/// func get<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws -> T {
///     try await get(key.withoutDefault) ?? key.defaultValue
/// }
/// ```
public protocol AsyncKVStoring: Sendable {
    /// Returns the value stored for `key`, or nil when nothing is stored or it does not decode as `T`.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)`` when the store cannot be read.
    nonisolated(nonsending) func get<T: Codable & Sendable>(_ key: KVKey<T>) async throws -> T?

    /// Returns the value stored for `key`, read as a `T` or migrated from what an older version stored; nil only
    /// when nothing is stored. See ``KVStoring/value(for:)``.
    ///
    /// - Throws: ``KVStoreError/decodingFailed(key:underlying:)`` or ``KVStoreError/readFailed(key:underlying:)``.
    nonisolated(nonsending) func value<T: Codable & Sendable>(for key: KVKey<T>) async throws -> T?

    /// Stores `value` for `key`, replacing any previous value. See ``KVStoring/set(_:value:)``.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` or ``KVStoreError/writeFailed(key:underlying:)``;
    ///   the previous value is kept either way.
    nonisolated(nonsending) func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) async throws

    /// Removes the value stored for `key`, and those under the older names its migrations read. See
    /// ``KVStoring/remove(_:)``.
    ///
    /// - Throws: ``KVStoreError/removeFailed(key:underlying:)``.
    nonisolated(nonsending) func remove<T: Codable & Sendable>(_ key: KVKey<T>) async throws

    /// Returns true when a value is stored for `key`, or under an older name its migrations read.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)`` when the store cannot be read.
    nonisolated(nonsending) func contains<T: Codable & Sendable>(_ key: KVKey<T>) async throws -> Bool

    /// Removes every value this store holds, and nothing it does not.
    ///
    /// - Throws: ``KVStoreError/removeAllFailed(underlying:)``.
    nonisolated(nonsending) func removeAll() async throws

    /// The keys that hold a value in this store, sorted, each in its canonical (NFC) form.
    ///
    /// - Throws: ``KVStoreError/listFailed(underlying:)``.
    nonisolated(nonsending) func keys() async throws -> [String]

    /// Returns the value stored for `key`, or its default when nothing is stored or what is stored does not decode
    /// as `T`, even through the key's migrations.
    ///
    /// It reads through the key without its default, so a store made by `reportingDecodingFailures(to:)` reports a
    /// value that does not decode before the default is returned.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)`` when the store cannot be read.
    nonisolated(nonsending) func get<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws -> T

    /// Returns the value stored for `key`, read as a `T` or migrated from what an older version stored; nil when
    /// nothing is stored, whatever the key's default.
    ///
    /// - Throws: ``KVStoreError/decodingFailed(key:underlying:)`` or ``KVStoreError/readFailed(key:underlying:)``.
    nonisolated(nonsending) func value<T: Codable & Sendable>(for key: KVKeyWithDefault<T>) async throws -> T?

    /// Stores `value` for `key`, replacing any previous value; a value equal to the default is stored too.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` or ``KVStoreError/writeFailed(key:underlying:)``;
    ///   the previous value is kept either way.
    nonisolated(nonsending) func set<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>, value: T) async throws

    /// Removes the value stored for `key`, and those under the older names its migrations read, so that reads return
    /// its default again.
    ///
    /// - Throws: ``KVStoreError/removeFailed(key:underlying:)``.
    nonisolated(nonsending) func remove<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws

    /// Returns true when a value is stored for `key` (or under an older name its migrations read), even one equal to
    /// its default; false when reads return the default because nothing is stored.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)`` when the store cannot be read.
    nonisolated(nonsending) func contains<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws -> Bool
}

/// An ``AsyncKVStoring`` that can observe its keys: a stream per key, as ``ReactiveKVStore/stream(_:)`` gives it.
public protocol AsyncKVStreaming: AsyncKVStoring {
    /// A stream of the value stored for `key`: the current value first, then the value after each change the store
    /// can see, skipping values stored identically; it ends when the consuming task is cancelled.
    ///
    /// Every implementation keeps two promises. The stream is listening when its first value is read, so no change
    /// made after `stream(_:)` returns is lost; and the value it emits last is what the store holds, read through the
    /// key's migrations, whatever name it was written under. Changes that follow each other quickly may fold into the
    /// one read after them; each store's `stream(_:)` says which. ``KVStreamFilter`` is the rule for skipping.
    func stream<T: Codable & Sendable & Equatable>(_ key: KVKey<T>) -> AsyncStream<T?>
}

extension InMemoryKVStore: AsyncExpiringKVStoring {}
extension DiskKVStore: AsyncExpiringKVStoring {}
extension UserDefaultsKVStore: AsyncKVStoring {}
extension ReactiveKVStore: AsyncKVStreaming, AsyncExpiringKVStoring {}
