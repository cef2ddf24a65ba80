public import Foundation

/// Where a store that keeps values with a lifetime reads the time, and how its background work waits for it.
///
/// Stores use the system's clock (``SystemExpiryClock``) unless they are given another. Tests give them
/// ForgeStorageTesting's `ManualExpiryClock` and move it by hand, so a value expires when the test says so, never
/// when the machine is slow.
public protocol ExpiryClock: Sendable {
    /// The current time.
    var now: Date { get }

    /// Returns once ``now`` has reached `date`, at once when it has already.
    ///
    /// - Throws: `CancellationError` when the task is cancelled before then.
    func sleep(until date: Date) async throws
}

/// The system's wall clock: what `Date()` says.
public struct SystemExpiryClock: ExpiryClock {
    /// Creates the system clock.
    public init() {}

    /// The current time, `Date()`.
    public var now: Date { Date() }

    /// Sleeps until `date`; a clock set forward meanwhile makes it return late by as much, never early.
    public func sleep(until date: Date) async throws {
        while true {
            let interval = date.timeIntervalSinceNow
            guard interval > 0 else { return }
            try await Task.sleep(for: .seconds(interval))
        }
    }
}

extension ExpiryClock where Self == SystemExpiryClock {
    /// The system's wall clock.
    public static var system: SystemExpiryClock { SystemExpiryClock() }
}

extension Duration {
    /// The duration in seconds, as `Date` arithmetic takes it.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
