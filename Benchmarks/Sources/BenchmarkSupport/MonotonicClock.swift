#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The system's monotonic clock, one clock for every process of the machine.
///
/// The cross-process latency benchmark stamps each value with it in the writing process and subtracts the stamp
/// from its own reading in the observing one. `CLOCK_MONOTONIC` counts from boot on Linux (and from an arbitrary
/// but system-wide point on Apple platforms), so two processes' readings can be compared; Swift's clocks do not
/// promise that.
public enum MonotonicClock {
    /// The clock's reading, in nanoseconds.
    public static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
