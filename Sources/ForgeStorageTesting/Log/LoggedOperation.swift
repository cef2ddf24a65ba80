/// One call an in-memory store received, as ``OperationLog`` records it.
///
/// ```swift
/// #expect(log.entries == [
///     LoggedOperation(.delete, "auth.access", in: "keychain"),
///     LoggedOperation(.deleteAll, in: "files"),
/// ])
/// ```
public struct LoggedOperation: Sendable, Hashable {
    /// The label of the store that received the call, as given when the store was created.
    public var store: String
    /// What the call does.
    public var operation: StoreOperation
    /// The key or path, as given; nil for the whole store.
    public var target: String?
    /// True when an injected fault failed the call.
    public var failed: Bool

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - operation: What the call does.
    ///   - target: The key or path; nil for the whole store.
    ///   - store: The label of the store.
    ///   - failed: True when an injected fault failed the call.
    public init(_ operation: StoreOperation, _ target: String? = nil, in store: String, failed: Bool = false) {
        self.store = store
        self.operation = operation
        self.target = target
        self.failed = failed
    }
}

extension LoggedOperation: CustomStringConvertible {
    /// The entry as a line, for example `keychain delete auth.access` or `files deleteAll (failed)`.
    public var description: String {
        var line = "\(store) \(operation.rawValue)"
        if let target { line += " \(target)" }
        if failed { line += " (failed)" }
        return line
    }
}
