public import Logging

/// The level at which ``StoreObservability`` logs each kind of event.
///
/// ```swift
/// // Every call a store makes, at info, for a service being debugged.
/// let observability = StoreObservability(logger: logger, levels: StoreLogLevels(success: .info))
/// ```
public struct StoreLogLevels: Sendable, Hashable {
    /// A call to a store's storage that succeeded; `trace` by default.
    public var success: Logger.Level
    /// A call that failed; `error` by default.
    public var failure: Logger.Level
    /// A value a read found that did not decode as the type asked for; `warning` by default.
    public var valueNotDecoded: Logger.Level
    /// A read a migration served (at each such read, until the key is set again); `debug` by default.
    public var migrationApplied: Logger.Level
    /// A reclaim that removed expired values; `debug` by default.
    public var expiredValuesReclaimed: Logger.Level

    /// Levels for each kind of event.
    ///
    /// - Parameters:
    ///   - success: A call that succeeded.
    ///   - failure: A call that failed.
    ///   - valueNotDecoded: A value that did not decode.
    ///   - migrationApplied: A read a migration served.
    ///   - expiredValuesReclaimed: A reclaim that removed expired values.
    public init(
        success: Logger.Level = .trace,
        failure: Logger.Level = .error,
        valueNotDecoded: Logger.Level = .warning,
        migrationApplied: Logger.Level = .debug,
        expiredValuesReclaimed: Logger.Level = .debug
    ) {
        self.success = success
        self.failure = failure
        self.valueNotDecoded = valueNotDecoded
        self.migrationApplied = migrationApplied
        self.expiredValuesReclaimed = expiredValuesReclaimed
    }
}
