internal import Foundation

/// Reclaims a store's expired values in the background, at a bounded cost: for a store that holds many values with a
/// lifetime and is seldom written to, whose writes would otherwise reclaim them (see ``KVExpiry``).
///
/// Run it in a task for as long as the store is used, or as a swift-service-lifecycle `Service` (ForgeServiceLifecycle
/// makes it one):
///
/// ```swift
/// let reaper = ExpiryReaper(store: sessions, interval: .seconds(300))
/// let reaping = Task { await reaper.run() }
/// // … on shutdown:
/// reaping.cancel()
/// ```
///
/// Each pass removes expired values in batches of ``batchSize``, going on while batches come back full, and at most
/// ``maxBatchesPerPass`` of them; passes start ``interval`` apart on the store's clock. A pass that fails (the
/// database is away) is tried again at the next.
public struct ExpiryReaper: Sendable {
    /// The time between the starts of two passes.
    public let interval: Duration
    /// The most values one batch removes.
    public let batchSize: Int
    /// The most batches one pass runs, so that a pass that finds a backlog yields to the store's other work.
    public let maxBatchesPerPass: Int

    /// The clock the reaper sleeps on: the store's.
    private let clock: any ExpiryClock
    /// Removes up to the given number of expired values and returns how many.
    private let reclaim: @Sendable (Int) async throws -> Int

    /// A reaper of `store`'s expired values: any store that keeps lifetimes, the synchronous stores of the library
    /// included (they are `AsyncExpiringKVStoring` too).
    ///
    /// - Parameters:
    ///   - store: The store; the reaper sleeps on its clock.
    ///   - interval: The time between passes. Defaults to one minute.
    ///   - batchSize: The most values one batch removes; at least 1 (a smaller size is taken as 1). Defaults to 256.
    ///   - maxBatchesPerPass: The most batches one pass runs; at least 1. Defaults to 16.
    public init(
        store: some AsyncExpiringKVStoring,
        interval: Duration = .seconds(60),
        batchSize: Int = 256,
        maxBatchesPerPass: Int = 16
    ) {
        self.init(
            clock: store.expiry?.clock ?? SystemExpiryClock(),
            interval: interval,
            batchSize: batchSize,
            maxBatchesPerPass: maxBatchesPerPass
        ) { try await store.reclaimExpiredValues(limit: $0) }
    }

    private init(
        clock: any ExpiryClock,
        interval: Duration,
        batchSize: Int,
        maxBatchesPerPass: Int,
        reclaim: @escaping @Sendable (Int) async throws -> Int
    ) {
        self.clock = clock
        self.interval = interval
        self.batchSize = max(1, batchSize)
        self.maxBatchesPerPass = max(1, maxBatchesPerPass)
        self.reclaim = reclaim
    }

    /// Runs passes until the task is cancelled, then returns.
    ///
    /// - Parameter onPass: Called after each pass with the number of values it removed, or the error that ended it.
    public func run(onPass: @Sendable (Result<Int, any Error>) -> Void = { _ in }) async {
        while !Task.isCancelled {
            // Taken before the pass, so that passes start one interval apart, and a test that moves the clock once
            // it has seen a pass reaches the next one however far the reaper has got.
            let nextPass = clock.now.addingTimeInterval(interval.timeInterval)
            onPass(await Result { try await reclaimOnce() })
            do {
                try await clock.sleep(until: nextPass)
            } catch {
                return
            }
        }
    }

    /// Runs one pass: batches until one is not full, or ``maxBatchesPerPass`` of them; returns how many values it
    /// removed.
    ///
    /// - Throws: The store's error of the batch that failed; the batches before it stay done.
    public func reclaimOnce() async throws -> Int {
        var removed = 0
        for _ in 0..<maxBatchesPerPass {
            let batch = try await reclaim(batchSize)
            removed += batch
            guard batch >= batchSize, !Task.isCancelled else { break }
            await Task.yield()
        }
        return removed
    }
}

extension Result where Failure == any Error {
    /// The result of `body`: its value, or the error it threw.
    fileprivate init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
