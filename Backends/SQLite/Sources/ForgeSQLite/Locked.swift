internal import Foundation

/// A value that any thread reads and changes under one lock, held only for the closure given.
///
/// The package's platforms include macOS 14, where `Synchronization.Mutex` is missing, so a lock of Foundation's
/// guards the value. Conditionally `Sendable`: the compiler still checks what goes in the box.
final class Locked<Value> {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, under the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

// Safe to share: `value` is read and changed only under `lock`.
extension Locked: @unchecked Sendable where Value: Sendable {}
