/// The labels of the metrics ``StoreObservability`` reports, and their dimensions.
///
/// Every metric has the dimensions `store` (`kv`, `files` or `secrets`) and `label` (the label the store was given);
/// those of calls have `operation` too (`read`, `write`, `delete`, `exists`, `list`, `deleteAll`, `reclaimExpired`,
/// `rotateMasterKey`). No dimension holds a key or a path, so the number of series stays small.
public enum StoreMetricLabels {
    /// A counter of calls to the stores' storage, by `store`, `label`, `operation` and `outcome` (`success` or
    /// `failure`).
    public static let operations = "forge_store_operations"
    /// A counter of the calls that failed, by `store`, `label`, `operation` and `reason`: the storage's reason
    /// (`outOfSpace`, `permissionDenied`, `ioError`, `other`…) or else the error's case (`alreadyExists`,
    /// `tamperedItem`…).
    public static let failures = "forge_store_failures"
    /// A timer of the calls' durations, by `store`, `label` and `operation`.
    public static let duration = "forge_store_duration"
    /// A counter of the bytes the calls read (values' JSON, files' contents), by `store`, `label` and `operation`.
    public static let bytesRead = "forge_store_bytes_read"
    /// A counter of the bytes the calls wrote, by `store`, `label` and `operation`.
    public static let bytesWritten = "forge_store_bytes_written"
    /// A counter of the values reads found that did not decode, by `store` and `label`.
    public static let valuesNotDecoded = "forge_store_values_not_decoded"
    /// A counter of the reads migrations served, by `store` and `label`.
    public static let migrationsApplied = "forge_store_migrations_applied"
    /// Counts the expired values key-value stores removed to reclaim their space.
    public static let expiredValuesReclaimed = "forge_store_expired_values_reclaimed"
}
