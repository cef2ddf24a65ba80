public import ForgeFileStore
public import Testing

/// The behaviour every `FileStoring` shares: the suite the package runs against each of its file stores,
/// ready to run against yours.
///
/// Each check gets a fresh, empty store. Run each check as a test case of its own:
///
/// ```swift
/// import ForgeStorageTesting
/// import Testing
///
/// @Test(arguments: FileStoringConformance.checks)
/// func behavesLikeEveryFileStore(_ check: FileStoringConformance.Check) async throws {
///     try await check.run(on: MyFileStore())
/// }
/// ```
///
/// or all of them in one test with ``run(makeStore:sourceLocation:)``. Pass a ``Subject`` instead of the store
/// to run the checks that need a second handle or a neighbour (see ``Subject``); without them those checks are
/// reported as skipped. Some checks call the store from four threads at once: run the suite under
/// ThreadSanitizer too (`swift test --sanitize=thread`), which reports any data race they provoke.
///
/// The checks demand only what `FileStoring` documents: a store that follows those rules passes them all.
public enum FileStoringConformance: ConformanceSuite {
    /// Every check of the suite, in a stable order; each names the behaviour it pins down.
    public static var checks: [Check] {
        synchronous(AsyncFileStoringConformance.coreChecks)
            + concurrencyChecks + synchronous(AsyncFileStoringConformance.sharingChecks)
    }

    /// Runs every check, each against a fresh store from `makeStore`, in the current test.
    ///
    /// ```swift
    /// @Test func behavesLikeEveryFileStore() async {
    ///     await FileStoringConformance.run { MyFileStore() }
    /// }
    /// ```
    ///
    /// A check that throws is recorded as an issue naming it, and the others still run.
    ///
    /// - Parameters:
    ///   - makeStore: Makes a fresh, empty store.
    ///   - sourceLocation: Where to report a check that throws; the caller's line by default.
    public static func run(
        makeStore: () async throws -> any FileStoring,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        await checks.runEach({ Subject(try await makeStore()) }, sourceLocation: sourceLocation)
    }
}

extension FileStoringConformance {
    /// The checks `AsyncFileStoringConformance` defines, run against a synchronous subject through its store's
    /// own methods.
    static func synchronous(_ checks: [AsyncFileStoringConformance.Check]) -> [Check] {
        checks.map { $0.adapted { (subject: Subject) in subject.asynchronous } }
    }
}
