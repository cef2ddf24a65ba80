public import Testing

/// A suite of checks that every store of a kind shares (``KVStoringConformance``, ``ExpiryConformance``, ...): run
/// each check as a test case of its own, or all of them in one test with ``run(makeSubject:sourceLocation:)``.
///
/// The protocol is the suites' own: conforming a type of yours to it is not supported, and a later release may add
/// requirements.
///
/// ```swift
/// @Test(arguments: KVStoringConformance.checks)
/// func behavesLikeEveryKVStore(_ check: KVStoringConformance.Check) async throws {
///     try await check.run(on: MyKVStore())
/// }
/// ```
public protocol ConformanceSuite {
    /// What each check runs against: a fresh, empty store, and what some checks need beside it.
    associatedtype Subject: Sendable

    /// Every check of the suite, in a stable order; each names the behaviour it pins down.
    static var checks: [ConformanceCheck<Subject>] { get }
}

extension ConformanceSuite {
    /// One check of the suite.
    public typealias Check = ConformanceCheck<Subject>

    /// Runs every check, each against a fresh subject from `makeSubject`, in the current test.
    ///
    /// A check that throws is recorded as an issue naming it, and the others still run. The checks a subject cannot
    /// run (it lacks what they need: a second handle, a neighbour, a stream, transactions...) are skipped, and named
    /// together in one warning when another check fails.
    ///
    /// - Parameters:
    ///   - makeSubject: Makes a fresh, empty store, with what the checks need beside it when it has them.
    ///   - sourceLocation: Where to report a check that throws; the caller's line by default.
    public static func run(
        makeSubject: () async throws -> Subject,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        await checks.runEach(makeSubject, sourceLocation: sourceLocation)
    }

    /// Runs every check, each against a fresh store from `makeStore`, in the current test.
    ///
    /// The checks that need a second handle or a neighbour are skipped. For the suites whose ``Subject`` is a
    /// `StoreSubject` (the settings and secret suites).
    ///
    /// ```swift
    /// @Test func behavesLikeEveryKVStore() async {
    ///     await KVStoringConformance.run { MyKVStore() }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - makeStore: Makes a fresh, empty store.
    ///   - sourceLocation: Where to report a check that throws; the caller's line by default.
    public static func run<Store>(
        makeStore: () async throws -> Store,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async where Subject == StoreSubject<Store> {
        await checks.runEach({ StoreSubject(try await makeStore()) }, sourceLocation: sourceLocation)
    }
}
