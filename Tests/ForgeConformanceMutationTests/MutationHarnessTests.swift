import Testing

/// The harness tells a body that fails from one that passes, and does not fail the test that asks.
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

    @Test func runsThatCatchAreCounted() async {
        let seeds = [1, 2, 3, 4]
        var index = 0
        let caught = await MutationHarness.catches(in: 4) {
            defer { index += 1 }
            #expect(seeds[index] % 2 == 1)
        }
        #expect(caught == 2)
    }
}
