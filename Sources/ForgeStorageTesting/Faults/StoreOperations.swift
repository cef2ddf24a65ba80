/// A set of operations a fault applies to: `.write`, `[.write, .delete]`, ``changes`` or ``all``.
///
/// Each `StoreOperation` has one bit, its position in `StoreOperation.allCases`, so a new operation has a
/// place in the set without anything else to change.
public struct StoreOperations: OptionSet, Sendable, Hashable {
    /// The bits of the set.
    public let rawValue: UInt32

    /// Creates a set from its bits.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// The set holding only `operation`.
    ///
    /// - Parameter operation: The operation the set holds.
    public init(_ operation: StoreOperation) {
        let index = StoreOperation.allCases.firstIndex(of: operation) ?? 0
        self.init(rawValue: 1 << index)
    }

    /// `get` or `load`.
    public static let read = StoreOperations(.read)
    /// `contains` or `exists`.
    public static let exists = StoreOperations(.exists)
    /// `set` or `save`.
    public static let write = StoreOperations(.write)
    /// `remove` or `delete` of one key or path.
    public static let delete = StoreOperations(.delete)
    /// `removeAll` or `deleteAll`.
    public static let deleteAll = StoreOperations(.deleteAll)
    /// `list(in:)`, `totalSize()` or `keys()`.
    public static let list = StoreOperations(.list)
    /// The removal of a key-value store's expired values.
    public static let reclaimExpired = StoreOperations(.reclaimExpired)
    /// A secret store's change of its master key.
    public static let rotateMasterKey = StoreOperations(.rotateMasterKey)

    /// Every operation that only looks: ``read``, ``exists`` and ``list``.
    public static let reads: StoreOperations = [.read, .exists, .list]
    /// Every operation that changes what is stored: ``write``, ``delete``, ``deleteAll``, ``reclaimExpired`` and
    /// ``rotateMasterKey``.
    public static let changes: StoreOperations = [.write, .delete, .deleteAll, .reclaimExpired, .rotateMasterKey]
    /// Every operation.
    public static let all = StoreOperations(StoreOperation.allCases.map { StoreOperations($0) })
}
