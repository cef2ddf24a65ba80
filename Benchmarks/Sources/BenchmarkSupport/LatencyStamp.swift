/// One write of the cross-process latency benchmark: which request it answers, and when the writer made it.
///
/// `KVStreamWriter` stores it (as JSON, through a `DiskKVStore` or the raw atomic write); `KVStreamLatency` reads
/// it in another process and subtracts ``sent`` from its own ``MonotonicClock`` reading.
public struct LatencyStamp: Codable, Sendable, Equatable {
    /// The number of the write the reader asked for.
    public var index: Int
    /// ``MonotonicClock/nanoseconds()`` in the writer, read just before the write.
    public var sent: UInt64

    /// Creates the stamp of write `index`, made at `sent`.
    public init(index: Int, sent: UInt64) {
        self.index = index
        self.sent = sent
    }
}
