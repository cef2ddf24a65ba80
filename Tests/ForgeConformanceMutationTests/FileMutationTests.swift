import ForgeFileStore
import ForgeStorageTesting
import Testing

/// `FileStoringConformance` passes a store that follows the documented rules of `FileStoring`, and catches every
/// ``FileMutant`` of it.
@Suite("FileStoring mutation testing")
struct FileMutationTests {
    /// The check that kills each race mutant.
    private static func check(killing mutant: FileMutant) -> FileStoringConformance.Check? {
        let name =
            switch mutant {
            case .savesInTwoSteps: "a reader loading while a writer saves back-to-back sees whole files"
            case .checksThenSaves: "saves without overwrite from four threads never both win"
            default: "saves from four threads at once all land"
            }
        return FileStoringConformance.checks.first { $0.name == name }
    }

    @Test func theReferenceStorePassesEveryCheck() async {
        await FileStoringConformance.run { FileReferenceStore.subject(nil) }
    }

    @Test(arguments: FileMutant.allCases)
    func everyMutantIsCaught(_ mutant: FileMutant) async {
        #expect(
            await MutationHarness.catches { await FileStoringConformance.run { FileReferenceStore.subject(mutant) } }
        )
    }

    @Test(arguments: FileMutant.races)
    func everyRaceIsCaughtInNineteenRunsOfTwenty(_ mutant: FileMutant) async {
        let check = Self.check(killing: mutant)
        #expect(check != nil)
        let caught = await MutationHarness.catches(in: 20) {
            try await check?.run(on: FileReferenceStore.subject(mutant))
        }
        #expect(caught >= 19, "\(mutant) caught in \(caught) runs of 20")
    }

    @Test func theStoreAloneSkipsExactlyTheChecksThatNeedAHandleOrANeighbour() {
        let alone = FileStoringConformance.Subject(FileReferenceStore())
        let skipped = FileStoringConformance.checks.filter { $0.skipReason(for: alone) != nil }.map(\.name)
        #expect(skipped == ["deleteAll leaves a neighbour's files alone", "a second handle sees every change at once"])
        #expect(FileStoringConformance.checks.allSatisfy { $0.skipReason(for: FileReferenceStore.subject(nil)) == nil })
    }
}
