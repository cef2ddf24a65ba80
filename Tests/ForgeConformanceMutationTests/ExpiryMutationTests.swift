import ForgeKVStore
import ForgeStorageTesting
import Testing

/// The expiry suite against a store that keeps an index of expiry dates: the correct store passes every check, and
/// each of its mutants fails one.
@Suite("Expiry mutation testing")
struct ExpiryMutationTests {
    static func subject(_ mutant: ExpiryMutant?) -> ExpiryConformance.Subject {
        let clock = ManualExpiryClock()
        return .init(synchronous: ExpiringReferenceStore(expiry: KVExpiry(clock: clock), mutant: mutant), clock: clock)
    }

    @Test func theReferencePassesEveryCheck() async throws {
        for check in ExpiryConformance.checks where check.skipReason(for: Self.subject(nil)) == nil {
            try await check.run(on: Self.subject(nil))
        }
    }

    /// Every mutant fails some check; the test prints the score, and none of the mutants' failures.
    @Test func everyMutantIsCaught() async {
        let uncaught = await MutationHarness.uncaught(scoring: "ExpiryConformance", ExpiryMutant.allCases) { mutant in
            for check in ExpiryConformance.checks where check.skipReason(for: Self.subject(mutant)) == nil {
                try await check.run(on: Self.subject(mutant))
            }
        }
        #expect(uncaught.isEmpty, "no check catches \(uncaught)")
    }
}
