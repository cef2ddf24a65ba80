/// A value that ``KVStoring/get(_:)`` read as nil because it did not decode, as a store reports it to the
/// handler given to `reportingDecodingFailures(to:)` (see ``ReportingKVStore``).
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
