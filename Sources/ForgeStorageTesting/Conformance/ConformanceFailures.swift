internal import ForgeCore
internal import Testing

/// Tells whether a check records a failure, without changing what it records.
enum ConformanceFailures {
    /// Runs `body` and tells whether it recorded a failing issue (an unmet expectation, a recorded error); every
    /// issue still reaches the current test as it was.
    ///
    /// - Throws: What `body` throws.
    static func areRecorded(by body: @escaping @Sendable () async throws -> Void) async throws -> Bool {
        guard let test = Test.current else {
            try await body()
            return false
        }
        let failed = LockedState(false)
        let observer = IssueHandlingTrait.compactMapIssues { issue in
            #if compiler(>=6.3)
            if issue.severity == .error { failed.withLock { $0 = true } }
            #else
            failed.withLock { $0 = true }  // Issue severities came with Swift 6.3: every issue fails before it
            #endif
            return issue
        }
        try await observer.provideScope(for: test, testCase: Test.Case.current, performing: body)
        return failed.withLock { $0 }
    }
}
