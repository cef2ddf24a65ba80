/// What a call to a store's storage does, as the operation log records it, faults select it and `StoreEvent`s
/// report it.
public enum StoreOperation: String, Sendable, Hashable, CaseIterable {
    /// `get` (`KVStoring`, `CryptStoring`) or `load` (`FileStoring`).
    case read
    /// `contains` or `exists`.
    case exists
    /// `set` or `save`.
    case write
    /// `remove` or `delete` of one key or path.
    case delete
    /// `removeAll` or `deleteAll`.
    case deleteAll
    /// `list(in:)` or `totalSize()` of a file store, or `keys()` of a key-value or secret store.
    case list
    /// The removal of a key-value store's expired values, by a write that found it due, `reclaimExpiredValues(limit:)`
    /// or an `ExpiryReaper`.
    case reclaimExpired
    /// A secret store's change of the master key its secrets are sealed under: `rotateMasterKey(to:progress:)`.
    case rotateMasterKey
}
