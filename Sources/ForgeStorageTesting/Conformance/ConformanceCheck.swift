public import Testing

/// One behaviour a store must have, named as a sentence, that runs its `#expect` checks against a store.
///
/// The conformance suites (``KVStoringConformance``, ``FileStoringConformance``,
/// ``CryptStoringConformance``) are lists of checks. Pass a suite's `checks` as the arguments of a
/// parameterized test, and Swift Testing runs and reports each check on its own, by its sentence:
///
/// ```swift
/// @Test(arguments: KVStoringConformance.checks)
/// func behavesLikeEveryKVStore(_ check: KVStoringConformance.Check) async throws {
///     try await check.run(on: MyKVStore())
/// }
/// ```
///
/// A failed check reads like a sentence: `behavesLikeEveryKVStore(_:)` with the argument
/// "remove makes the key unset". A check that needs what the subject does not offer (a second handle on the same
/// storage, a neighbouring store) is skipped: reported as cancelled with the reason, never as passed.
public struct ConformanceCheck<Subject: Sendable>: Sendable {
    /// The behaviour the check pins down, as a sentence: "remove makes the key unset".
    public let name: String

    /// Why the check cannot run against a subject, or nil when it can.
    private let unmetNeed: @Sendable (Subject) -> String?

    /// Runs the check's expectations against a subject.
    private let body: @Sendable (Subject) async throws -> Void

    /// Creates a check named `name` that runs `body` against the subject it is given.
    ///
    /// - Parameters:
    ///   - name: The behaviour, as a sentence.
    ///   - body: The expectations, recorded with `#expect` and `#require`.
    public init(_ name: String, _ body: @escaping @Sendable (Subject) async throws -> Void) {
        self.init(name, unmetNeed: { _ in nil }, body)
    }

    /// Creates a check that runs only against subjects for which `unmetNeed` returns nil.
    init(
        _ name: String,
        unmetNeed: @escaping @Sendable (Subject) -> String?,
        _ body: @escaping @Sendable (Subject) async throws -> Void
    ) {
        self.name = name
        self.unmetNeed = unmetNeed
        self.body = body
    }

    /// Why the check is skipped for `subject` (it needs a second handle or a neighbour the subject lacks), or nil
    /// when it runs.
    ///
    /// - Returns: The reason, as a sentence naming what to give the subject.
    public func skipReason(for subject: Subject) -> String? {
        unmetNeed(subject)
    }

    /// Runs the check against `subject`, a fresh, empty store, recording any failed expectation as an issue
    /// of the current test.
    ///
    /// A check the subject cannot run (see ``skipReason(for:)``) cancels the current test case with the reason,
    /// which Swift Testing reports as cancelled, not passed (before Swift 6.3, it prints the reason and returns
    /// without checking anything). A skip is what the subject asked for, not a fault, so it records no issue: a
    /// passing run stays quiet. Call it from a test parameterized by the checks, one check per test case: in a loop
    /// over the checks, the first skipped one cancels the whole test, so run them all in one test with the suite's
    /// `run(makeSubject:)` instead.
    ///
    /// - Throws: What the store throws where the check does not expect it, or a failed `#require`.
    public func run(on subject: Subject) async throws {
        if let reason = skipReason(for: subject) {
            #if compiler(>=6.3)
            try Test.cancel("Skipped: \(reason)")
            #else
            print("Skipped \"\(name)\": \(reason)")
            return
            #endif
        }
        try await body(subject)
    }
}

extension ConformanceCheck {
    /// The same check, by the same name, for another kind of subject, which `transform` turns into this one: how
    /// a synchronous suite runs the checks its asynchronous twin defines.
    func adapted<Other: Sendable>(
        _ transform: @escaping @Sendable (Other) -> Subject
    ) -> ConformanceCheck<Other> {
        let unmetNeed = self.unmetNeed
        let body = self.body
        return ConformanceCheck<Other>(
            name,
            unmetNeed: { unmetNeed(transform($0)) },
            { try await body(transform($0)) }
        )
    }
}

extension ConformanceCheck: CustomStringConvertible, CustomTestStringConvertible {
    /// The check's sentence.
    public var description: String { name }

    /// The check's sentence, which names the test case in Swift Testing's reports.
    public var testDescription: String { name }
}

/// What a check may need beside the store under test.
enum ConformanceNeed: Sendable {
    /// Another handle on the same storage: a new instance over the same folder, suite or service.
    case secondHandle
    /// Another store on the same backing (another namespace, suite or service) that the store must leave alone.
    case neighbour

    /// Why a subject that lacks this cannot run the check.
    var reason: String {
        switch self {
        case .secondHandle: "the check needs a second handle on the same storage; give the Subject `reopen:`"
        case .neighbour: "the check needs a neighbouring store on the same backing; give the Subject `neighbour:`"
        }
    }
}

/// A conformance subject: a store, and what the checks that need more than the store may use.
protocol ConformanceSubject: Sendable {
    /// Whether the subject can open a second handle on the store's storage.
    var hasSecondHandle: Bool { get }
    /// Whether the subject has a neighbouring store on the same backing.
    var hasNeighbour: Bool { get }
}

extension ConformanceCheck where Subject: ConformanceSubject {
    /// Creates a check that runs only against subjects that offer `need`, and is skipped for the others.
    init(_ name: String, needs need: ConformanceNeed, _ body: @escaping @Sendable (Subject) async throws -> Void) {
        self.init(
            name,
            unmetNeed: { subject in
                switch need {
                case .secondHandle: subject.hasSecondHandle ? nil : need.reason
                case .neighbour: subject.hasNeighbour ? nil : need.reason
                }
            },
            body
        )
    }
}

extension Sequence {
    /// Runs every check against a fresh subject from `makeSubject`, and records an issue naming the check
    /// when one throws, so every check runs.
    ///
    /// The checks the subjects cannot run are skipped. When another check fails, they are reported together, as one
    /// warning naming them, so that a failing run says what it did not check; a passing run reports nothing more.
    ///
    /// - Parameters:
    ///   - makeSubject: Makes a fresh, empty store for each check.
    ///   - sourceLocation: Where to report a check that throws.
    func runEach<Subject>(
        _ makeSubject: () async throws -> Subject,
        sourceLocation: SourceLocation
    ) async where Element == ConformanceCheck<Subject> {
        var skipped: [String] = []
        var failed = false
        for check in self {
            do {
                let subject = try await makeSubject()
                if let reason = check.skipReason(for: subject) {
                    skipped.append("\"\(check.name)\": \(reason)")
                    continue
                }
                if try await ConformanceFailures.areRecorded(by: { try await check.run(on: subject) }) {
                    failed = true
                }
            } catch {
                failed = true
                Issue.record(error, "Check \"\(check.name)\" threw", sourceLocation: sourceLocation)
            }
        }
        guard failed, !skipped.isEmpty else { return }
        let report = "Skipped \(skipped.count) conformance checks:\n" + skipped.joined(separator: "\n")
        #if compiler(>=6.3)
        Issue.record("\(report)", severity: .warning, sourceLocation: sourceLocation)
        #else
        print(report)
        #endif
    }
}
