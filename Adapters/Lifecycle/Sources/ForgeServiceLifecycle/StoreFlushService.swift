public import Logging
public import ServiceLifecycle

/// A `Service` that flushes write-behind stores on a graceful shutdown, and periodically if asked: what a store held
/// pending is written before the process ends.
///
/// Add it to your `ServiceGroup` before the services that write to its stores: a group shuts its services down in the
/// reverse of their order, so the service flushes once they stopped writing.
///
/// ```swift
/// let settings = UserDefaultsKVStore(suiteName: "com.taskflow.server")
/// let group = ServiceGroup(
///     services: [StoreFlushService(flushing: settings), server],
///     gracefulShutdownSignals: [.sigterm],
///     logger: logger
/// )
/// try await group.run()
/// ```
///
/// On a graceful shutdown, and also when its task is cancelled, it flushes every store, in order, and returns; a
/// store whose flush fails does not stop the others, and the first failure is thrown, so the group reports it (the
/// others are logged as errors). With an
/// ``interval``, it also flushes every store each time the interval passes while it runs; a failure then is logged
/// as a warning, and the store keeps its changes pending for the next flush.
///
/// A `UserDefaultsKVStore` on Linux writes its changes about 10 ms after they are made, and when the process exits
/// normally; the service writes them while the group shuts down, where a failure is still reported, and is enough
/// without an interval. On Apple platforms its flush does nothing.
public struct StoreFlushService: Service {
    /// The stores flushed, in this order.
    public let stores: [any StoreFlushing]
    /// How often the stores are flushed while the service runs; nil: only when it ends.
    public let interval: Duration?
    /// Where a failure of a periodic flush is logged, and those of the last flush that are not thrown.
    public let logger: Logger

    /// Creates a service that flushes `stores` when it ends, and every `interval` if one is given.
    ///
    /// - Parameters:
    ///   - stores: The stores to flush, in this order.
    ///   - interval: How often to flush them while the service runs; nil (the default) flushes them only when it
    ///     ends.
    ///   - logger: Where a failure of a periodic flush is logged, as a warning. Defaults to the task's logger.
    public init(flushing stores: [any StoreFlushing], every interval: Duration? = nil, logger: Logger = .current) {
        self.stores = stores
        self.interval = interval
        self.logger = logger
    }

    /// Creates a service that flushes `stores` when it ends, and every `interval` if one is given.
    ///
    /// - Parameters:
    ///   - stores: The stores to flush, in this order.
    ///   - interval: How often to flush them while the service runs; nil (the default) flushes them only when it
    ///     ends.
    ///   - logger: Where a failure of a periodic flush is logged, as a warning. Defaults to the task's logger.
    public init(flushing stores: any StoreFlushing..., every interval: Duration? = nil, logger: Logger = .current) {
        self.init(flushing: stores, every: interval, logger: logger)
    }

    /// Waits for a graceful shutdown or a cancellation, flushing every ``interval`` meanwhile, then flushes every
    /// store and returns.
    ///
    /// - Throws: The error of the first store whose last flush failed, after every store was flushed.
    public func run() async throws {
        if let interval {
            while await pause(for: interval) {
                for store in stores {
                    do {
                        try await store.flush()
                    } catch {
                        logger.warning(
                            "A periodic flush failed; the changes stay pending for the next flush",
                            error: error,
                            metadata: ["store": "\(type(of: store))"]
                        )
                    }
                }
            }
        } else {
            // Returns on a graceful shutdown; throws on a cancellation, which ends the wait as well.
            try? await gracefulShutdown()
        }
        try await flushAll()
    }

    /// Waits `interval`; false when a graceful shutdown or a cancellation ended the wait.
    private func pause(for interval: Duration) async -> Bool {
        do {
            try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            return true
        } catch {
            return false
        }
    }

    /// Flushes every store, in order.
    ///
    /// - Throws: The error of the first store whose flush failed.
    private func flushAll() async throws {
        var firstFailure: (any Error)?
        for store in stores {
            do {
                try await store.flush()
            } catch {
                if firstFailure == nil {
                    firstFailure = error
                } else {
                    // Only the first is thrown: the others are told here.
                    logger.error("A flush failed", error: error, metadata: ["store": "\(type(of: store))"])
                }
            }
        }
        if let firstFailure { throw firstFailure }
    }
}
