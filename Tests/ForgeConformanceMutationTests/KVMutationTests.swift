import ForgeKVStore
import ForgeStorageTesting
import Testing

/// The KV conformance suite against its reference store and the reference's mutants: the reference passes every
/// check, each mutant fails one, and each race mutant fails nearly every run of the concurrency checks.
@Suite("KV mutation testing")
struct KVMutationTests {
    @Test func theReferencePassesEveryCheck() async {
        await KVStoringConformance.run { ReferenceKVStore().subject() }
    }

    @Test(arguments: KVMutant.allCases)
    func everyMutantIsCaught(mutant: KVMutant) async {
        let caught = await MutationHarness.catches {
            await KVStoringConformance.run { ReferenceKVStore(mutant: mutant).subject() }
        }
        #expect(caught, "no check catches \(mutant)")
    }

    @Test(arguments: KVMutant.races)
    func everyRaceIsCaughtInNineteenRunsOfTwenty(mutant: KVMutant) async {
        let concurrencyChecks = KVStoringConformance.checks.filter {
            $0.name.contains("thread") || $0.name.contains("reader")
        }
        #expect(concurrencyChecks.count == 2)
        let caught = await MutationHarness.catches(in: 20) {
            for check in concurrencyChecks {
                try await check.run(on: ReferenceKVStore(mutant: mutant).subject())
            }
        }
        #expect(caught >= 19, "\(mutant) caught in \(caught) of 20 runs")
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
