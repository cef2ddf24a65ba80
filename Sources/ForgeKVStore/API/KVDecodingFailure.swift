/// A value that ``KVStoring/get(_:)`` read as nil because it did not decode, as a store reports it to the
/// handler given to `reportingDecodingFailures(to:)` (see ``ReportingKVStore``).
///
/// It is one kind of `StoreEvent`, which a store made by `reportingEvents(label:to:)` reports among the others; make
/// one of the event with ``init(_:)`` to handle it as `reportingDecodingFailures(to:)` does.
public struct KVDecodingFailure: Sendable, Equatable, CustomStringConvertible {
    /// The key whose value did not decode.
    public let key: String
    /// The type the read asked for, as Swift spells it (`Profile`, `Optional<Int>`).
    public let expectedType: String
    /// Why: ``KVStoreError/decodingFailed(key:underlying:)``, naming the key (or the older key a migration
    /// read) and the decoder's description.
    public let error: KVStoreError

    /// A sentence naming the key, the type and the error, for a log.
    public var description: String {
        "The value of key '\(key)' did not decode as \(expectedType) and was read as nil: \(error)"
    }
}

extension KVDecodingFailure {
    /// The failure `event` reports, when it reports a value that `get` read as nil because it did not decode; nil for
    /// any other event (a call, a migration, a value that `value(for:)` threw).
    ///
    /// ```swift
    /// let store = DiskKVStore(namespace: "settings").reportingEvents(label: "settings") { event in
    ///     if let failure = KVDecodingFailure(event) { print(failure) }
    /// }
    /// ```
    ///
    /// - Parameter event: An event of a key-value store.
    public init?(_ event: StoreEvent) {
        guard case .valueNotDecoded(let failure) = event.kind, failure.readAsNil, let key = event.target else {
            return nil
        }
        self.key = key
        self.expectedType = failure.expectedType
        self.error = .decodingFailed(key: failure.storedName, underlying: failure.underlying)
    }
}
