internal import ForgeCore

/// A key-value store that tells a handler of every value its `get` reads as nil because it does not decode (a
/// model that changed, a damaged file), and otherwise is the store it wraps.
///
/// Make one with `reportingDecodingFailures(to:)`, on any store, and connect it to the app's logging, so that a
/// value lost to a model change leaves a trace:
///
/// ```swift
/// let store = DiskKVStore(namespace: "settings").reportingDecodingFailures { failure in
///     logger.error("\(failure)")
/// }
/// ```
///
/// The handler runs on the thread of the read. ``KVStoring/value(for:)`` reports nothing: it throws the failure.
///
/// It reports through the same events as `reportingEvents(label:to:)`, filtered down to the values `get` read as nil
/// (``KVDecodingFailure/init(_:)``), so it is that hook for a store that is not built on a backend (a
/// ``ReactiveKVStore``, a store written against ``KVStoring`` alone). A store that is reports these failures among
/// all its events with `reportingEvents(label:to:)`, which also tells its storage's calls and the reads a migration
/// served.
public struct ReportingKVStore<Base: Sendable>: Sendable {
    /// The store every call goes to.
    public let base: Base
    /// Where each value `get` read as nil is reported, as an event the handler's filter turns into a
    /// ``KVDecodingFailure``.
    let events: KVReadEvents

    /// Wraps `base`, reporting to `handler`.
    init(base: Base, handler: @escaping @Sendable (KVDecodingFailure) -> Void) {
        self.base = base
        self.events = KVReadEvents(
            reporter: .keyValue(label: "kv") { event in
                if let failure = KVDecodingFailure(event) { handler(failure) }
            }
        )
    }

    /// `read`'s value, or nil when it throws; a value that did not decode is reported first.
    private func reporting<T>(_ key: KVKey<T>, _ failure: any Error) -> T? {
        if case .decodingFailed(let name, let underlying) = failure as? KVStoreError {
            events.reportNotDecoded(key, name: name, underlying: underlying, readAsNil: true)
        }
        return nil
    }
}

extension ReportingKVStore: KVStoring where Base: KVStoring {
    /// Returns `base`'s value for `key`, or nil, reporting a value that does not decode.
    public func get<T: Codable & Sendable>(_ key: KVKey<T>) -> T? {
        do {
            return try base.value(for: key)
        } catch {
            return reporting(key, error)
        }
    }

    /// Returns `base`'s value for `key`, as ``KVStoring/value(for:)``.
    public func value<T: Codable & Sendable>(for key: KVKey<T>) throws -> T? { try base.value(for: key) }
    /// Stores `value` in `base`, as ``KVStoring/set(_:value:)``.
    public func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) throws { try base.set(key, value: value) }
    /// Removes `key` from `base`, as ``KVStoring/remove(_:)``.
    public func remove<T: Codable & Sendable>(_ key: KVKey<T>) throws { try base.remove(key) }
    /// Whether `base` holds a value for `key`, as ``KVStoring/contains(_:)``.
    public func contains<T: Codable & Sendable>(_ key: KVKey<T>) -> Bool { base.contains(key) }
    /// Removes every value of `base`, as ``KVStoring/removeAll()``.
    public func removeAll() throws { try base.removeAll() }
    /// The keys of `base`, as ``KVStoring/keys()``.
    public func keys() throws -> [String] { try base.keys() }
}

extension ReportingKVStore: AsyncKVStoring where Base: AsyncKVStoring {
    /// Returns `base`'s value for `key`, or nil, reporting a value that does not decode.
    ///
    /// - Throws: What `base`'s own `get` throws when it cannot read (a synchronous store's `get` throws nothing).
    public func get<T: Codable & Sendable>(_ key: KVKey<T>) async throws -> T? {
        do {
            return try await base.value(for: key)
        } catch KVStoreError.decodingFailed(let name, let underlying) {
            return reporting(key, KVStoreError.decodingFailed(key: name, underlying: underlying))
        } catch {
            // Another failure is `base`'s to answer as its `get` answers it: nil, or the error again.
            return try await base.get(key)
        }
    }

    /// Returns `base`'s value for `key`, as `AsyncKVStoring`'s `value(for:)`.
    public func value<T: Codable & Sendable>(for key: KVKey<T>) async throws -> T? { try await base.value(for: key) }
    /// Stores `value` in `base`, as `AsyncKVStoring`'s `set(_:value:)`.
    public func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) async throws {
        try await base.set(key, value: value)
    }
    /// Removes `key` from `base`, as `AsyncKVStoring`'s `remove(_:)`.
    public func remove<T: Codable & Sendable>(_ key: KVKey<T>) async throws { try await base.remove(key) }
    /// Whether `base` holds a value for `key`, as `AsyncKVStoring`'s `contains(_:)`.
    public func contains<T: Codable & Sendable>(_ key: KVKey<T>) async throws -> Bool {
        try await base.contains(key)
    }
    /// Removes every value of `base`, as ``AsyncKVStoring/removeAll()``.
    public func removeAll() async throws { try await base.removeAll() }
    /// The keys of `base`, as ``AsyncKVStoring/keys()``.
    public func keys() async throws -> [String] { try await base.keys() }

    /// Returns `base`'s value for `key`, or the key's default, reporting a value that does not decode.
    ///
    /// - Throws: What `base`'s own `get` throws when it cannot read.
    public func get<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws -> T {
        try await get(key.withoutDefault) ?? key.defaultValue
    }

    /// Returns `base`'s value for `key`, nil when nothing is stored, as `value(for:)` of a ``KVKey``.
    public func value<T: Codable & Sendable>(for key: KVKeyWithDefault<T>) async throws -> T? {
        try await base.value(for: key)
    }

    /// Stores `value` in `base`, as `set(_:value:)` of a ``KVKey``.
    public func set<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>, value: T) async throws {
        try await base.set(key, value: value)
    }

    /// Removes `key` from `base`, as `remove(_:)` of a ``KVKey``.
    public func remove<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws { try await base.remove(key) }

    /// Whether `base` holds a value for `key`, as `contains(_:)` of a ``KVKey``.
    public func contains<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws -> Bool {
        try await base.contains(key)
    }
}

extension ReportingKVStore: AsyncKVStreaming where Base: AsyncKVStreaming {
    /// `base`'s stream of `key`, as ``AsyncKVStreaming/stream(_:)``.
    public func stream<T: Codable & Sendable & Equatable>(_ key: KVKey<T>) -> AsyncStream<T?> { base.stream(key) }
}

extension KVStoring {
    /// This store, telling `handler` of every value ``get(_:)`` reads as nil because it does not decode.
    public func reportingDecodingFailures(
        to handler: @escaping @Sendable (KVDecodingFailure) -> Void
    ) -> ReportingKVStore<Self> {
        ReportingKVStore(base: self, handler: handler)
    }
}

extension AsyncKVStoring {
    /// This store, telling `handler` of every value `get` reads as nil because it does not decode.
    public func reportingDecodingFailures(
        to handler: @escaping @Sendable (KVDecodingFailure) -> Void
    ) -> ReportingKVStore<Self> {
        ReportingKVStore(base: self, handler: handler)
    }
}

extension KVStoring where Self: AsyncKVStoring {
    /// This store, telling `handler` of every value `get` reads as nil because it does not decode.
    public func reportingDecodingFailures(
        to handler: @escaping @Sendable (KVDecodingFailure) -> Void
    ) -> ReportingKVStore<Self> {
        ReportingKVStore(base: self, handler: handler)
    }
}

extension ReportingKVStore: KVChangeObserving where Base: KVChangeObserving {
    /// `base`'s changes: see `KVChangeObserving.observeChanges(_:)`.
    public func observeChanges(_ onChange: @escaping @Sendable (_ key: String?) -> Void) -> ChangeObservation {
        base.observeChanges(onChange)
    }

    /// `base`'s changes of `key`: see `KVChangeObserving.observeChanges(of:_:)`.
    public func observeChanges(of key: String, _ onChange: @escaping @Sendable () -> Void) -> ChangeObservation? {
        base.observeChanges(of: key, onChange)
    }
}
