import ForgeCore
import Testing

/// Runs conformance checks against a broken store and collects what they record, without reporting it to the test
/// that runs them: a mutant's expected failures are counted, not printed.
enum MutationHarness {
    /// The failures `body` records (unmet expectations, recorded errors) or throws, each described; empty when it
    /// passes.
    ///
    /// Every issue `body` records is taken here instead of reaching the current test, so the test neither fails nor
    /// prints it; warnings (such as a report of skipped checks) do not count.
    static func failures(of body: @escaping @Sendable () async throws -> Void) async -> [String] {
        await issues(of: body).failures
    }

    /// The issues `body` records, or the error it throws, each described, split into failures and warnings; none of
    /// them reaches the current test.
    static func issues(
        of body: @escaping @Sendable () async throws -> Void
    ) async -> (failures: [String], warnings: [String]) {
        guard let test = Test.current else {
            Issue.record("MutationHarness runs inside a test, whose issues it takes")
            return (["no current test"], [])
        }
        let issues = LockedState<(failures: [String], warnings: [String])>(([], []))
        let capture = IssueHandlingTrait.compactMapIssues { issue in
            issues.withLock {
                #if compiler(>=6.3)
                if issue.severity == .error { $0.failures.append("\(issue)") } else { $0.warnings.append("\(issue)") }
                #else
                $0.failures.append("\(issue)")  // Issue severities came with Swift 6.3: every issue fails before it
                #endif
            }
            return nil
        }
        do {
            try await capture.provideScope(for: test, testCase: Test.Case.current) {
                do {
                    try await body()
                } catch {
                    issues.withLock { $0.failures.append("threw \(error)") }
                }
            }
        } catch {
            issues.withLock { $0.failures.append("threw \(error)") }
        }
        return issues.withLock { $0 }
    }

    /// Whether `body` records at least one failing issue (an unmet expectation, a recorded error) or throws; what it
    /// records is not reported to the current test.
    static func catches(_ body: @escaping @Sendable () async throws -> Void) async -> Bool {
        await !failures(of: body).isEmpty
    }

    /// How many of `runs` runs of `body` record a failing issue or throw.
    static func catches(in runs: Int, _ body: @escaping @Sendable () async throws -> Void) async -> Int {
        var count = 0
        for _ in 0..<runs where await catches(body) {
            count += 1
        }
        return count
    }

    /// Runs `body` against each of `mutants`, and returns the mutants it did not catch.
    static func uncaught<Mutant: Sendable>(
        _ mutants: [Mutant],
        _ body: @escaping @Sendable (Mutant) async throws -> Void
    ) async -> [Mutant] {
        var uncaught: [Mutant] = []
        for mutant in mutants where await !catches({ try await body(mutant) }) {
            uncaught.append(mutant)
        }
        return uncaught
    }

    /// Runs `body` against each of `mutants` as ``uncaught(_:_:)`` does, prints the suite's mutation score in one
    /// line (the one line a passing mutation test prints), and returns the mutants it did not catch.
    static func uncaught<Mutant: Sendable>(
        scoring suite: String,
        _ mutants: [Mutant],
        _ body: @escaping @Sendable (Mutant) async throws -> Void
    ) async -> [Mutant] {
        let missed = await uncaught(mutants, body)
        print("Mutation score of \(suite): \(mutants.count - missed.count) of \(mutants.count) mutants caught")
        return missed
    }
}
