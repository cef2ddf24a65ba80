public import Testing

/// One behaviour a store must have, named as a sentence, that runs its `#expect` checks against a store.
///
/// The conformance suites (``KVStoringConformance``, ``FileStoringConformance``,
/// ``CryptStoringConformance``) are lists of checks. Pass a suite's `checks` as the arguments of a
/// parameterized test, and Swift Testing runs and reports each check on its own, by its sentence:
///
/// ```swift
/// @Test(arguments: KVStoringConformance.checks)
/// func behavesLikeEveryKVStore(_ check: ConformanceCheck<any KVStoring>) async throws {
///     try await check.run(on: MyKVStore())
/// }
/// ```
///
/// A failed check reads like a sentence: `behavesLikeEveryKVStore(_:)` with the argument
/// "remove makes the key unset".
public struct ConformanceCheck<Subject: Sendable>: Sendable {
    /// The behaviour the check pins down, as a sentence: "remove makes the key unset".
    public let name: String

    /// Runs the check's expectations against a subject.
    private let body: @Sendable (Subject) async throws -> Void

    /// Creates a check named `name` that runs `body` against the subject it is given.
    ///
    /// - Parameters:
    ///   - name: The behaviour, as a sentence.
    ///   - body: The expectations, recorded with `#expect` and `#require`.
    public init(_ name: String, _ body: @escaping @Sendable (Subject) async throws -> Void) {
        self.name = name
        self.body = body
    }

    /// Runs the check against `subject`, a fresh, empty store, recording any failed expectation as an issue
    /// of the current test.
    ///
    /// - Throws: What the store throws where the check does not expect it, or a failed `#require`.
    public func run(on subject: Subject) async throws {
        try await body(subject)
    }
}

extension ConformanceCheck: CustomStringConvertible, CustomTestStringConvertible {
    /// The check's sentence.
    public var description: String { name }

    /// The check's sentence, which names the test case in Swift Testing's reports.
    public var testDescription: String { name }
}

extension Sequence {
    /// Runs every check against a fresh subject from `makeSubject`, and records an issue naming the check
    /// when one throws, so every check runs.
    ///
    /// - Parameters:
    ///   - makeSubject: Makes a fresh, empty store for each check.
    ///   - sourceLocation: Where to report a check that throws.
    func runEach<Subject>(
        _ makeSubject: () async throws -> Subject,
        sourceLocation: SourceLocation
    ) async where Element == ConformanceCheck<Subject> {
        for check in self {
            do {
                try await check.run(on: makeSubject())
            } catch {
                Issue.record(error, "Check \"\(check.name)\" threw", sourceLocation: sourceLocation)
            }
        }
    }
}
