import ForgeFileStore
import ForgeStorageTesting
import Testing

/// `FileStoringConformance` passes a store that follows the documented rules of `FileStoring`, and catches every
/// ``FileMutant`` of it, each race mutant in every run.
@Suite("FileStoring mutation testing")
struct FileMutationTests {
    /// The check that kills each race mutant.
    private static func check(killing mutant: FileMutant) -> FileStoringConformance.Check? {
        let name =
            switch mutant {
            case .savesInTwoSteps: "a read while another thread writes back-to-back sees a whole value"
            case .checksThenSaves: "saves without overwrite from four threads never both win"
            default: "writes from four threads at once all land"
            }
        return FileStoringConformance.checks.first { $0.name == name }
    }

    /// How many times the killing check runs against each race mutant, each run catching it.
    static let raceRuns = 10

    @Test func theReferenceStorePassesEveryCheck() async {
        await FileStoringConformance.run { FileReferenceStore.subject(nil) }
    }

    /// Every mutant fails some check; the test prints the score, and none of the mutants' failures.
    @Test func everyMutantIsCaught() async {
        let uncaught = await MutationHarness.uncaught(scoring: "FileStoringConformance", FileMutant.allCases) {
            mutant in
            await FileStoringConformance.run { FileReferenceStore.subject(mutant) }
        }
        #expect(uncaught.isEmpty, "no check catches \(uncaught)")
    }

    /// The thread checks make their rival call while a race mutant's save waits between its steps (at its
    /// ``RaceGate``), so the check that kills each race mutant catches it in every run, whatever the machine's load.
    @Test func everyRaceIsCaughtInEveryRun() async {
        for mutant in FileMutant.races {
            let check = Self.check(killing: mutant)
            #expect(check != nil)
            let caught = await MutationHarness.catches(in: Self.raceRuns) {
                try await check?.run(on: FileReferenceStore.subject(mutant))
            }
            #expect(caught == Self.raceRuns, "\(mutant) caught in \(caught) of \(Self.raceRuns) runs")
        }
    }

    @Test func theStoreAloneSkipsExactlyTheChecksThatNeedAHandleOrANeighbour() {
        let alone = FileStoringConformance.Subject(FileReferenceStore())
        let skipped = FileStoringConformance.checks.filter { $0.skipReason(for: alone) != nil }.map(\.name)
        #expect(skipped == ["deleteAll leaves a neighbour's files alone", "a second handle sees every change at once"])
        #expect(FileStoringConformance.checks.allSatisfy { $0.skipReason(for: FileReferenceStore.subject(nil)) == nil })
    }
}
