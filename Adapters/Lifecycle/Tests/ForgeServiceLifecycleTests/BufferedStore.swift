import ForgeServiceLifecycle

/// A store that buffers its writes until it is flushed, as a write-behind store does, and tells each flush.
actor BufferedStore: StoreFlushing {
    /// A flush that failed, as the store throws it.
    struct FlushFailed: Error, Equatable {}

    /// Written, not yet flushed.
    private(set) var pending: [String] = []
    /// Flushed, in order.
    private(set) var written: [String] = []
    /// How many flushes are still to fail.
    private var failures: Int
    /// Each flush's number, from 1, whether it wrote or failed.
    let flushes: AsyncStream<Int>
    private let flushed: AsyncStream<Int>.Continuation
    private var flushCount = 0

    /// A store whose first `failures` flushes fail.
    init(failures: Int = 0) {
        self.failures = failures
        (flushes, flushed) = AsyncStream<Int>.makeStream()
    }

    /// Buffers `entry` until the next flush.
    func write(_ entry: String) {
        pending.append(entry)
    }

    func flush() throws(FlushFailed) {
        flushCount += 1
        defer { flushed.yield(flushCount) }
        guard failures == 0 else {
            failures -= 1
            throw FlushFailed()
        }
        written += pending
        pending = []
    }
}
