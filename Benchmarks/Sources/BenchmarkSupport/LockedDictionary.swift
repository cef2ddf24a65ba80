import Synchronization

/// The in-memory limit: a dictionary behind a mutex.
public final class LockedDictionary<Value: Sendable>: Sendable {
    private let entries = Mutex<[String: Value]>([:])

    /// Creates an empty dictionary.
    public init() {}

    /// The value for `key`.
    public func get(_ key: String) -> Value? {
        entries.withLock { $0[key] }
    }

    /// Stores `value` for `key`.
    public func set(_ key: String, _ value: Value) {
        entries.withLock { $0[key] = value }
    }
}
