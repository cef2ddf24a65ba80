internal import ForgeCore

/// The rule every key stream of the library follows to skip a value: emit a value unless it is stored identically to
/// the one emitted before it, that is equal and encoded to the same JSON.
///
/// `==` alone is not enough: `0.0 == -0.0`, and a type's `==` may ignore a field, yet the store holds one or the
/// other, and a stream's last value must be what the store holds. A store that implements
/// ``AsyncKVStreaming/stream(_:)`` keeps one filter per stream and asks it about each value it reads:
///
/// ```swift
/// var filter = KVStreamFilter<Double>()
/// filter.admits(0.0)   // true: the first value
/// filter.admits(0.0)   // false: stored identically
/// filter.admits(-0.0)  // true: equal, but stored as other JSON
/// ```
public struct KVStreamFilter<Value: Codable & Sendable & Equatable>: Sendable {
    /// The last value admitted; nil before the first, which any value is new to.
    private var last: Value??

    /// Creates a filter that has admitted nothing yet.
    public init() {}

    /// Whether a stream emits `value`: true for the first value, and for a value not stored identically to the last
    /// one admitted, which `value` then becomes.
    public mutating func admits(_ value: Value?) -> Bool {
        if let last, Self.isStoredIdentically(last, value) { return false }
        last = .some(value)
        return true
    }

    /// Whether `a` and `b` are stored as the same JSON: equal, and encoded alike (nil is stored as nothing).
    public static func isStoredIdentically(_ a: Value?, _ b: Value?) -> Bool {
        guard a == b else { return false }
        guard let a, let b else { return true }
        return (try? JSONCodec.encode(a)) == (try? JSONCodec.encode(b))
    }
}
