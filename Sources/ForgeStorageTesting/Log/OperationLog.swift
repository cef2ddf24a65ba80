internal import ForgeCore

/// Every read, write and delete that in-memory stores received, in order, so a test can assert exactly
/// what a service touched.
///
/// Share one log between the stores of a service, give each store a label, and the log shows one order
/// across them all:
///
/// ```swift
/// let log = OperationLog()
/// let keychain = InMemoryCrypt(label: "keychain", log: log)
/// let files = InMemoryFileStore(label: "files", log: log)
/// let prefs = InMemoryKVStore(label: "prefs", log: log)
///
/// try await service.logout()
/// #expect(log.entries.map(\.description) == ["keychain deleteAll", "files deleteAll", "prefs deleteAll"])
/// #expect(log.entries(.write).isEmpty)   // `writes` would hold the deletes: it is every change
/// ```
///
/// A call is logged when it reaches the store's storage: after its key or path was accepted and its value
/// encoded, so a call refused for an invalid path or an unencodable value is not an entry. A call failed by
/// an injected fault is logged with ``LoggedOperation/failed`` set.
public final class OperationLog: Sendable {
    private let state = LockedState<[LoggedOperation]>([])

    /// Creates an empty log.
    public init() {}

    /// Every logged call, oldest first.
    public var entries: [LoggedOperation] {
        state.withLock { $0 }
    }

    /// The logged calls that changed or tried to change what is stored: writes, deletes, delete-alls, removals of
    /// expired values and master-key rotations (``StoreOperations/changes``).
    public var writes: [LoggedOperation] {
        entries.filter { StoreOperations.changes.contains(StoreOperations($0.operation)) }
    }

    /// The logged calls of `operation`.
    ///
    /// - Parameter operation: The operation to keep.
    /// - Returns: The entries of that operation, oldest first.
    public func entries(_ operation: StoreOperation) -> [LoggedOperation] {
        entries.filter { $0.operation == operation }
    }

    /// The logged calls on the store labelled `store`.
    ///
    /// - Parameter store: The store's label.
    /// - Returns: The entries of that store, oldest first.
    public func entries(in store: String) -> [LoggedOperation] {
        entries.filter { $0.store == store }
    }

    /// Forgets every entry, for example after a test's setup.
    public func removeAll() {
        state.withLock { $0.removeAll() }
    }

    /// Appends `entry`.
    func append(_ entry: LoggedOperation) {
        state.withLock { $0.append(entry) }
    }
}
