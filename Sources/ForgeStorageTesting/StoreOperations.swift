/// A set of operations a fault applies to: `.write`, `[.write, .delete]`, ``changes`` or ``all``.
public struct StoreOperations: OptionSet, Sendable, Hashable {
    /// The bits of the set.
    public let rawValue: UInt8

    /// Creates a set from its bits.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The set holding only `operation`.
    public init(_ operation: StoreOperation) {
        switch operation {
        case .read: self = .read
        case .exists: self = .exists
        case .write: self = .write
        case .delete: self = .delete
        case .deleteAll: self = .deleteAll
        case .list: self = .list
        }
    }

    /// `get` or `load`.
    public static let read = StoreOperations(rawValue: 1 << 0)
    /// `contains` or `exists`.
    public static let exists = StoreOperations(rawValue: 1 << 1)
    /// `set` or `save`.
    public static let write = StoreOperations(rawValue: 1 << 2)
    /// `remove` or `delete` of one key or path.
    public static let delete = StoreOperations(rawValue: 1 << 3)
    /// `removeAll` or `deleteAll`.
    public static let deleteAll = StoreOperations(rawValue: 1 << 4)
    /// `list(in:)` or `totalSize()`.
    public static let list = StoreOperations(rawValue: 1 << 5)

    /// Every operation that only looks: ``read``, ``exists`` and ``list``.
    public static let reads: StoreOperations = [.read, .exists, .list]
    /// Every operation that changes what is stored: ``write``, ``delete`` and ``deleteAll``.
    public static let changes: StoreOperations = [.write, .delete, .deleteAll]
    /// Every operation.
    public static let all: StoreOperations = [.reads, .changes]
}
