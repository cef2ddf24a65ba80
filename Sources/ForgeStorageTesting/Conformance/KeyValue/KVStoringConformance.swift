import ForgeKVStore
import Testing

/// The behaviour every `KVStoring` shares: the suite the package runs against each of its key-value stores,
/// ready to run against yours.
///
/// Each check gets a fresh, empty store. Run each check as a test case of its own:
///
/// ```swift
/// import ForgeStorageTesting
/// import Testing
///
/// @Test(arguments: KVStoringConformance.checks)
/// func behavesLikeEveryKVStore(_ check: KVStoringConformance.Check) async throws {
///     try await check.run(on: MyKVStore())
/// }
/// ```
///
/// or all of them in one test with ``ConformanceSuite/run(makeStore:sourceLocation:)``.
///
/// Two checks need more than the store, and are skipped (reported as such, never as passed) without it: give a
/// ``Subject`` with `reopen` (another handle on the same storage) to run "a second handle sees every write and
/// remove", and with `neighbour` (another store on the same backing) to run "removeAll and remove leave a
/// neighbouring store alone"; ``ConformanceSuite/run(makeSubject:sourceLocation:)`` runs them all.
///
/// The concurrency checks call the store from several threads at once: run the suite under ThreadSanitizer too
/// (`swift test --sanitize=thread`), which reports a data race the checks' expectations may not see.
///
/// The package holds the suite to a reference store and its broken variants (a store without a lock, one whose
/// `removeAll` clears its neighbours, one that truncates long keys, one that caches reads, ...): each variant fails
/// at least one check.
public enum KVStoringConformance: ConformanceSuite {
    /// Every check of the suite, in a stable order; each names the behaviour it pins down.
    ///
    /// They are the checks of ``AsyncKVStoringConformance``, each run through the store's synchronous methods,
    /// and the checks that call the store from several threads at once.
    public static var checks: [Check] {
        synchronous(AsyncKVStoringConformance.coreChecks) + concurrencyChecks
            + synchronous(AsyncKVStoringConformance.sharingChecks + AsyncKVStoringConformance.evolutionChecks)
            + synchronous(AsyncKVStoringConformance.keyDefaultChecks)
    }
}

extension KVStoringConformance {
    /// The checks `AsyncKVStoringConformance` defines, run against a synchronous subject through its store's
    /// synchronous methods.
    static func synchronous(_ checks: [AsyncKVStoringConformance.Check]) -> [Check] {
        checks.map { $0.adapted { (subject: Subject) in subject.asynchronous } }
    }
}
