import ForgeKVStore
import ForgeStorageTesting
import Testing

/// The KV conformance suite against its reference store and the reference's mutants: the reference passes every
/// check, each mutant fails one, and each race mutant fails the concurrency checks in every run.
@Suite("KV mutation testing")
struct KVMutationTests {
    /// How many times the concurrency checks run against each race mutant, each run catching it.
    static let raceRuns = 10

    @Test func theReferencePassesEveryCheck() async {
        await KVStoringConformance.run { ReferenceKVStore().subject() }
    }

    /// Every mutant fails some check; the test prints the score, and none of the mutants' failures.
    @Test func everyMutantIsCaught() async {
        let uncaught = await MutationHarness.uncaught(scoring: "KVStoringConformance", KVMutant.allCases) { mutant in
            await KVStoringConformance.run { ReferenceKVStore(mutant: mutant).subject() }
        }
        #expect(uncaught.isEmpty, "no check catches \(uncaught)")
    }

    /// The concurrency checks make their rival call while a race mutant's call waits between its steps (at its
    /// ``RaceGate``), so they catch it in every run, whatever the machine's load.
    @Test func everyRaceIsCaughtInEveryRun() async {
        let concurrencyChecks = KVStoringConformance.checks.filter {
            $0.name.contains("thread") || $0.name.contains("reader")
        }
        #expect(concurrencyChecks.count == 2)
        for mutant in KVMutant.races {
            let caught = await MutationHarness.catches(in: Self.raceRuns) {
                for check in concurrencyChecks {
                    try await check.run(on: ReferenceKVStore(mutant: mutant).subject())
                }
            }
            #expect(caught == Self.raceRuns, "\(mutant) caught in \(caught) of \(Self.raceRuns) runs")
        }
    }

    @Test func theStoreAloneSkipsExactlyTheChecksThatNeedASecondHandleOrANeighbour() {
        let alone = KVStoringConformance.Subject(ReferenceKVStore())
        let skipped = KVStoringConformance.checks.filter { $0.skipReason(for: alone) != nil }.map(\.name)
        #expect(
            skipped == [
                "a second handle sees every write and remove", "removeAll and remove leave a neighbouring store alone",
            ]
        )
        let full = ReferenceKVStore().subject()
        #expect(KVStoringConformance.checks.allSatisfy { $0.skipReason(for: full) == nil })
    }
}
