public import Foundation

/// How long a value written with ``ExpiringKVStoring/set(_:value:lifetime:)`` stays.
///
/// A write without a lifetime (``KVStoring/set(_:value:)``, or ``forever``) stores a value that never expires, even
/// when the value it replaces had a lifetime; ``unchanged`` is the one way to keep that lifetime.
public enum KVLifetime: Sendable, Hashable {
    /// The value never expires.
    case forever
    /// The value expires this long after the write, by the store's clock.
    case after(Duration)
    /// The value expires at this time, by the store's clock; a time already past stores a value that reads as
    /// missing at once.
    case until(Date)
    /// The value keeps the lifetime of the value it replaces: its expiration date, when a value that has not expired
    /// is stored under the key's name; else it never expires. The read of the old lifetime and the write are two
    /// calls: a write by another instance between them may lose its lifetime to this one.
    case unchanged
}
