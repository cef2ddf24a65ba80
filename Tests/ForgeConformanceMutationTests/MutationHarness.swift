import ForgeCore
import Testing

/// Runs conformance checks against a broken store without failing the test that does it, and tells whether they
/// caught it.
enum MutationHarness {
    /// Whether `body` records at least one failing issue (an unmet expectation, a thrown error).
    ///
    /// The issues are taken as known issues, so they do not fail the calling test; warnings (such as a report of
    /// skipped checks) do not count.
    static func catches(_ body: () async throws -> Void) async -> Bool {
        let caught = LockedState(false)
        await withKnownIssue(isIntermittent: true) {
            do {
                try await body()
            } catch {
                Issue.record(error)
            }
        } matching: { issue in
            guard issue.severity == .error else { return false }
            caught.withLock { $0 = true }
            return true
        }
        return caught.withLock { $0 }
    }

    /// How many of `runs` runs of `body` record a failing issue: for checks that catch a race only when it happens.
    static func catches(in runs: Int, _ body: () async throws -> Void) async -> Int {
        var count = 0
        for _ in 0..<runs where await catches(body) {
            count += 1
        }
        return count
    }
}
