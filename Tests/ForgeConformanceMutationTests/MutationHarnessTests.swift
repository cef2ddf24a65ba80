import ForgeCore
import Testing

// Issue severities, which these tests record, came with Swift 6.3.
#if compiler(>=6.3)
/// The harness tells a body that fails from one that passes, and keeps what a failing body records from the test
/// that asks: this test passes, and prints none of it.
struct MutationHarnessTests {
    struct Thrown: Error {}

    @Test func aFailedExpectationOrAThrownErrorIsCaughtAndAPassingBodyIsNot() async {
        let failed = await MutationHarness.catches { #expect(1 + 1 == 3) }
        let threw = await MutationHarness.catches { throw Thrown() }
        let passed = await MutationHarness.catches { #expect(1 + 1 == 2) }
        let warned = await MutationHarness.catches { Issue.record("only a warning", severity: .warning) }
        #expect(failed && threw)
        #expect(!passed && !warned)
    }

    @Test func everyFailureOfABodyIsCollected() async {
        let failures = await MutationHarness.failures {
            #expect(1 + 1 == 3)
            Issue.record("recorded")
            Issue.record("only a warning", severity: .warning)
            throw Thrown()
        }
        #expect(failures.count == 3, "\(failures)")
    }

    @Test func runsThatCatchAreCounted() async {
        let run = LockedState(0)
        let caught = await MutationHarness.catches(in: 4) {
            let index = run.withLock { run in
                defer { run += 1 }
                return run
            }
            #expect(index % 2 == 1)
        }
        #expect(caught == 2)
    }

    @Test func theMutantsNotCaughtAreReturned() async {
        let uncaught = await MutationHarness.uncaught([1, 2, 3, 4]) { number in
            #expect(number % 2 == 0)
        }
        #expect(uncaught == [2, 4])
    }
}
#endif
