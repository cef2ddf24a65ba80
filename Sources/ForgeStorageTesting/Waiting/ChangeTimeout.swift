/// A change a test awaited with ``awaitChange(of:within:observing:after:)``,
/// ``awaitElement(of:in:within:where:)`` or ``awaitValue(of:in:within:where:)`` that did not come.
///
/// Its ``description`` names what was awaited and for how long, and is what Swift Testing or XCTest shows when the
/// error fails a test:
///
/// ```
/// no change of 'model.taskCount' came within 5.0 seconds
/// ```
public struct ChangeTimeout: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why the wait ended without the change.
    public enum Reason: Sendable, Equatable {
        /// The time limit passed first.
        case timeLimitReached
        /// The sequence awaited ended before an element matched.
        case sequenceEnded
    }

    /// What the test awaited, as it named it (`"model.taskCount"`).
    public let awaited: String
    /// The time limit of the wait.
    public let limit: Duration
    /// Why the wait ended without the change.
    public let reason: Reason

    /// A wait for `awaited`, limited to `limit`, that ended for `reason`.
    public init(awaited: String, limit: Duration, reason: Reason) {
        self.awaited = awaited
        self.limit = limit
        self.reason = reason
    }

    /// A sentence naming what was awaited and the limit.
    public var description: String {
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        switch reason {
        case .timeLimitReached:
            return "no change of '\(awaited)' came within \(seconds) seconds"
        case .sequenceEnded:
            return "the sequence of '\(awaited)' ended before the change awaited came (time limit \(seconds) seconds)"
        }
    }
}
