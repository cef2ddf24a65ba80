public import ForgeKVStore
public import ServiceLifecycle
public import Logging

/// A reaper of a store's expired values (`ExpiryReaper`) as a `Service`: it runs beside the app's other services and
/// stops at a graceful shutdown or a cancellation, whichever comes first.
///
/// ```swift
/// let group = ServiceGroup(
///     services: [postgresClient, ExpiryReaperService(ExpiryReaper(store: sessions, interval: .seconds(300)))],
///     logger: logger
/// )
/// ```
public struct ExpiryReaperService: Service {
    /// The reaper the service runs.
    public let reaper: ExpiryReaper
    /// Where a pass that failed is logged; nil logs nothing.
    let logger: Logger?
    /// Told of each pass: the number of values it removed, or its error.
    let onPass: @Sendable (Result<Int, any Error>) -> Void

    /// A service that runs `reaper`, logging a pass that failed to `logger` at `warning`.
    ///
    /// - Parameters:
    ///   - reaper: The reaper to run.
    ///   - logger: Where a pass that failed is logged; nil logs nothing.
    ///   - onPass: Told of each pass (a metric, a test): the number of values it removed, or its error.
    public init(
        _ reaper: ExpiryReaper,
        logger: Logger? = nil,
        onPass: @escaping @Sendable (Result<Int, any Error>) -> Void = { _ in }
    ) {
        self.reaper = reaper
        self.logger = logger
        self.onPass = onPass
    }

    /// Runs the reaper until a graceful shutdown or a cancellation; a pass in progress is cut short between batches.
    public func run() async {
        await cancelWhenGracefulShutdown {
            await reaper.run { result in
                onPass(result)
                if case .failure(let error) = result {
                    logger?.warning("a pass of the expiry reaper failed", metadata: ["forge.error": "\(error)"])
                }
            }
        }
    }
}
