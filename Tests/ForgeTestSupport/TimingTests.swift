import Foundation

/// Whether the tests that measure time or speed run: only when `FORGE_TIMING_TESTS=1` is set.
///
/// What such a test measures depends on the machine and its load, so the test command README.md gives
/// (`swift test --no-parallel`) leaves them out, and they report their figures rather than fail on them. CI runs
/// them in a step of their own.
///
/// ```swift
/// @Test(.enabled(if: TimingTests.areEnabled, "set FORGE_TIMING_TESTS=1 to measure"))
/// func aBurstOfSetsRewritesFarFewerTimes() { ... }
/// ```
public enum TimingTests {
    /// The environment variable that enables them.
    public static let variable = "FORGE_TIMING_TESTS"

    /// Whether `FORGE_TIMING_TESTS` is `1`.
    public static var areEnabled: Bool {
        ProcessInfo.processInfo.environment[variable] == "1"
    }
}
