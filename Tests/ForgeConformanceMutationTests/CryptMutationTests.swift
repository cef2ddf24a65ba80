import ForgeCrypt
import ForgeStorageTesting
import Testing

/// CryptStoringConformance against its reference store and every mutant of it: the reference passes every
/// check, each mutant fails at least one, and each race mutant fails the concurrency checks in every run.
@Suite("CryptStoring mutation testing")
struct CryptMutationTests {
    /// How many times the concurrency checks run against each race mutant, each run catching it.
    static let raceRuns = 10

    /// A fresh reference store, or the mutant, with a second handle on its namespace, a neighbour beside it, and the
    /// race gate of their backing.
    static func fullSubject(_ mutant: CryptMutant?) -> CryptStoringConformance.Subject {
        let backing = CryptBacking()
        var subject = CryptStoringConformance.Subject(
            CryptReferenceStore(backing: backing, mutant: mutant),
            reopen: { CryptReferenceStore(backing: backing, mutant: mutant) },
            neighbour: CryptReferenceStore(backing: backing, namespace: "neighbour", mutant: mutant)
        )
        subject.raceGate = backing.raceGate
        return subject
    }

    /// The checks that call the store from several threads at once.
    static let concurrencyChecks = CryptStoringConformance.checks.filter {
        $0.name.contains("threads at once") || $0.name.contains("another thread")
    }

    @Test func theReferenceStorePassesEveryCheck() async {
        await CryptStoringConformance.run { Self.fullSubject(nil) }
    }

    /// Every mutant fails some check; the test prints the score, and none of the mutants' failures.
    @Test func everyMutantFailsACheck() async {
        let uncaught = await MutationHarness.uncaught(scoring: "CryptStoringConformance", CryptMutant.allCases) {
            mutant in
            await CryptStoringConformance.run { Self.fullSubject(mutant) }
        }
        #expect(uncaught.isEmpty, "no check caught \(uncaught)")
    }

    /// The concurrency checks make their rival call while a race mutant's set waits between its steps (at its
    /// ``RaceGate``), so they catch it in every run, whatever the machine's load.
    @Test func theConcurrencyChecksCatchEachRaceInEveryRun() async {
        #expect(Self.concurrencyChecks.count == 2)
        for mutant in CryptMutant.allCases.filter(\.isRace) {
            let caught = await MutationHarness.catches(in: Self.raceRuns) {
                for check in Self.concurrencyChecks {
                    try await check.run(on: Self.fullSubject(mutant))
                }
            }
            #expect(caught == Self.raceRuns, "caught \(mutant) in \(caught) of \(Self.raceRuns) runs")
        }
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

    /// The testing docs' one-liner, a bare store given to `run(on:)`, compiles and runs; the checks that need more are
    /// cancelled as skipped, quietly.
    @Test(arguments: CryptStoringConformance.checks)
    func aBareStoreRunsAsReadmeShows(_ check: CryptStoringConformance.Check) async throws {
        try await check.run(on: CryptReferenceStore())
    }
}
