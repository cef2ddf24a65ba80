import ForgeTestSupport
import Foundation
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

extension ReliabilitySuites {
    /// Kills a process that writes to every disk store with SIGKILL at random moments, hundreds of times, and
    /// checks after each kill that nothing is torn, lost or left behind.
    ///
    /// `FORGE_CRASH_ITERATIONS` sets the number of kills (default 200), `FORGE_CRASH_SEED` the seed of the
    /// kill moments, and `FORGE_CRASH_WRITER` the path of the `ForgeCrashWriter` executable when it is not
    /// beside the test bundle.
    @Suite("Crash safety")
    struct CrashSafetyTests {
        @Test func everyKeyHoldsItsPreviousOrNewValueAfterSIGKILL() async throws {
            let writer = try #require(CrashHarness.writerURL(), "ForgeCrashWriter was not built beside the tests")
            let environment = ProcessInfo.processInfo.environment
            let iterations = environment["FORGE_CRASH_ITERATIONS"].flatMap { Int($0) } ?? 200
            let seed = environment["FORGE_CRASH_SEED"].flatMap { UInt64($0) } ?? 0xC0FFEE
            var generator = SeededGenerator(seed: seed)

            try await withTemporaryFolder { folder in
                var harness = CrashHarness(folder: folder)
                var killsWithLeftovers = 0
                for iteration in 0..<iterations {
                    let firstGeneration = (harness.generations.compactMap { $0 }.max() ?? -1) + 1
                    // The moment of the kill is the test's random input; nothing waits for a result here.
                    let delay = UInt32.random(in: 0...100_000, using: &generator)
                    // The child runs, is killed and the stores reopened on threads of their own, so the waits hold
                    // no thread of the pool the other tests run on.
                    let exitStatus = try await onOwnThread { () throws -> Int32? in
                        let child = try Process.run(writer, arguments: [folder.path, String(firstGeneration)])
                        usleep(delay)
                        kill(child.processIdentifier, SIGKILL)
                        child.waitUntilExit()
                        return child.terminationReason == .uncaughtSignal ? nil : child.terminationStatus
                    }
                    if let exitStatus {
                        Issue.record("kill \(iteration): the writer exited by itself (\(exitStatus))")
                        return
                    }
                    if !harness.temporaryNames().isEmpty { killsWithLeftovers += 1 }
                    // The next start of the app: a new process opens every store, and exits.
                    let opened = try await onOwnThread {
                        let opener = try Process.run(writer, arguments: [folder.path, "open"])
                        opener.waitUntilExit()
                        return opener.terminationStatus
                    }
                    #expect(opened == 0, "kill \(iteration): the stores failed to open")
                    try await harness.reopenAndCheck(after: "kill \(iteration) (seed \(seed))", from: firstGeneration)
                }
                print(
                    "Crash safety: \(iterations) kills, \(killsWithLeftovers) left temporary files that the next "
                        + "start removed, \(harness.generations.compactMap { $0 }.max() ?? -1) generations written"
                )
            }
        }
    }
}
