internal import ForgeCore

/// A value that ``KVStoring/get(_:)`` read as nil because it did not decode, as a store reports it to the
/// handler given to its `reportDecodingFailures(to:)`.
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

/// Where a store sends the values its `get` read as nil because they did not decode.
///
/// To nobody until a handler is given. Shared by copies of a store.
final class DecodingFailureReports: Sendable {
    private let handler = LockedState<(@Sendable (KVDecodingFailure) -> Void)?>(nil)

    /// Sends every later failure to `handler`, in place of the previous one; nil stops reporting.
    func send(to handler: (@Sendable (KVDecodingFailure) -> Void)?) {
        self.handler.withLock { $0 = handler }
    }

    /// The value `read` returns, or nil when it throws; a value that did not decode is reported first.
    func get<T>(_ key: KVKey<T>, _ read: () throws -> T?) -> T? {
        do {
            return try read()
        } catch KVStoreError.decodingFailed(let name, let underlying) {
            if let handler = handler.withLock({ $0 }) {
                let error = KVStoreError.decodingFailed(key: name, underlying: underlying)
                handler(KVDecodingFailure(key: key.key, expectedType: "\(T.self)", error: error))
            }
            return nil
        } catch {
            return nil
        }
    }
}
