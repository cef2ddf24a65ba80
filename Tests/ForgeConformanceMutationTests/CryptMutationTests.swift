import ForgeCrypt
import ForgeStorageTesting
import Testing

/// CryptStoringConformance against its reference store and every mutant of it: the reference passes every
/// check, and each mutant fails at least one.
@Suite("CryptStoring mutation testing")
struct CryptMutationTests {
    /// A fresh reference store, or the mutant, with a second handle on its namespace and a neighbour beside it.
    static func fullSubject(_ mutant: CryptMutant?) -> CryptStoringConformance.Subject {
        let backing = CryptBacking()
        return CryptStoringConformance.Subject(
            CryptReferenceStore(backing: backing, mutant: mutant),
            reopen: { CryptReferenceStore(backing: backing, mutant: mutant) },
            neighbour: CryptReferenceStore(backing: backing, namespace: "neighbour", mutant: mutant)
        )
    }

    /// The checks that call the store from several threads at once.
    static let concurrencyChecks = CryptStoringConformance.checks.filter {
        $0.name.contains("threads at once") || $0.name.contains("another thread")
    }

    @Test func theReferenceStorePassesEveryCheck() async {
        await CryptStoringConformance.run { Self.fullSubject(nil) }
    }

    @Test(arguments: CryptMutant.allCases)
    func everyMutantFailsACheck(_ mutant: CryptMutant) async {
        let caught = await MutationHarness.catches {
            await CryptStoringConformance.run { Self.fullSubject(mutant) }
        }
        #expect(caught, "no check caught \(mutant)")
    }

    @Test(arguments: CryptMutant.allCases.filter(\.isRace))
    func theConcurrencyChecksCatchEachRaceInNineteenRunsOfTwenty(_ mutant: CryptMutant) async {
        #expect(Self.concurrencyChecks.count == 2)
        let caught = await MutationHarness.catches(in: 20) {
            for check in Self.concurrencyChecks {
                try await check.run(on: Self.fullSubject(mutant))
            }
        }
        #expect(caught >= 19, "caught \(mutant) in \(caught) runs of 20")
    }

    @Test func aStoreAloneSkipsExactlyTheChecksThatNeedASecondHandleOrANeighbour() {
        let alone = CryptStoringConformance.Subject(CryptReferenceStore())
        let skipped = CryptStoringConformance.checks.filter { $0.skipReason(for: alone) != nil }.map(\.name)
        #expect(
            skipped == [
                "another handle on the same storage sees the same secrets as they change",
                "a neighbouring store keeps its secrets through this store's deleteAll and delete",
                "another handle on the same storage lists the same keys",
            ]
        )
        #expect(CryptStoringConformance.checks.allSatisfy { $0.skipReason(for: Self.fullSubject(nil)) == nil })
    }

    /// README's one-liner, a bare store given to `run(on:)`, compiles and runs; the checks that need more are
    /// reported as skipped.
    @Test(arguments: CryptStoringConformance.checks)
    func aBareStoreRunsAsReadmeShows(_ check: CryptStoringConformance.Check) async throws {
        try await check.run(on: CryptReferenceStore())
    }
}
