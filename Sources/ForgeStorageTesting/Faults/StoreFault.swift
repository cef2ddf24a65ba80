/// One rule of ``StoreFaults``: which operations fail, on which key or path, how, and how many times.
///
/// ```swift
/// let faults = StoreFaults([
///     .next(.write, at: "avatars/current.jpg", with: .outOfSpace),
///     .always(.read, with: .deviceLocked),
/// ])
/// ```
public struct StoreFault: Sendable {
    /// The operations the fault fails.
    public var operations: StoreOperations
    /// The key or path the fault applies to, compared as Swift compares strings; nil for every key or path.
    ///
    /// Whole-store operations (`removeAll`, `deleteAll`, `totalSize`, `keys()`, `rotateMasterKey`) only match a fault
    /// without a target; `list(in:)` matches its folder as given.
    public var target: String?
    /// How the operation fails.
    public var failure: StoreFailure
    /// How many more operations the fault fails; nil for every one.
    public var remaining: Int?

    /// Creates a fault.
    ///
    /// - Parameters:
    ///   - operations: The operations that fail.
    ///   - target: The key or path they fail for; nil for all.
    ///   - failure: How they fail.
    ///   - count: How many operations fail before the fault is spent; nil for every one.
    public init(_ operations: StoreOperations, at target: String? = nil, with failure: StoreFailure, count: Int?) {
        self.operations = operations
        self.target = target
        self.failure = failure
        self.remaining = count.map { max($0, 0) }
    }

    /// A fault that fails the next `count` matching operations, then lets them run.
    ///
    /// - Parameters:
    ///   - operations: The operations that fail.
    ///   - count: How many operations fail; 1 by default.
    ///   - target: The key or path they fail for; nil for all.
    ///   - failure: How they fail.
    /// - Returns: The fault.
    public static func next(
        _ operations: StoreOperations,
        times count: Int = 1,
        at target: String? = nil,
        with failure: StoreFailure
    ) -> StoreFault {
        StoreFault(operations, at: target, with: failure, count: count)
    }

    /// A fault that fails every matching operation until it is removed.
    ///
    /// - Parameters:
    ///   - operations: The operations that fail.
    ///   - target: The key or path they fail for; nil for all.
    ///   - failure: How they fail.
    /// - Returns: The fault.
    public static func always(
        _ operations: StoreOperations,
        at target: String? = nil,
        with failure: StoreFailure
    ) -> StoreFault {
        StoreFault(operations, at: target, with: failure, count: nil)
    }

    /// True when the fault fails `operation` on `target`.
    func matches(_ operation: StoreOperation, target: String?) -> Bool {
        guard operations.contains(StoreOperations(operation)), remaining != 0 else { return false }
        guard let wanted = self.target else { return true }
        return wanted == target
    }
}
