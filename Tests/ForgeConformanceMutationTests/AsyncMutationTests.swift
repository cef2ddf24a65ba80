import ForgeStorageTesting
import Testing

/// The asynchronous suites against the same reference stores and mutants as their synchronous twins: the references
/// pass every check, and each mutant that is not a race fails one.
///
/// The race mutants are left out: the checks that catch them call a store from real threads, which the asynchronous
/// suites leave to their synchronous twins.
@Suite("Async suites' mutation testing")
struct AsyncMutationTests {
    @Test func theReferenceStoresPassEveryCheck() async {
        await AsyncKVStoringConformance.run { ReferenceKVStore().asyncSubject() }
        await AsyncFileStoringConformance.run { FileReferenceStore.asyncSubject(nil) }
        await AsyncCryptStoringConformance.run { CryptReferenceStore.asyncSubject(nil) }
    }

    /// Every mutant but the races fails some check of `AsyncKVStoringConformance`; the test prints the score.
    @Test func everyKVMutantButTheRacesIsCaught() async {
        let mutants = KVMutant.allCases.filter { !KVMutant.races.contains($0) }
        let uncaught = await MutationHarness.uncaught(scoring: "AsyncKVStoringConformance", mutants) { mutant in
            await AsyncKVStoringConformance.run { ReferenceKVStore(mutant: mutant).asyncSubject() }
        }
        #expect(uncaught.isEmpty, "no check catches \(uncaught)")
    }

    /// Every mutant but the races fails some check of `AsyncFileStoringConformance`; the test prints the score.
    @Test func everyFileMutantButTheRacesIsCaught() async {
        let mutants = FileMutant.allCases.filter { !FileMutant.races.contains($0) }
        let uncaught = await MutationHarness.uncaught(scoring: "AsyncFileStoringConformance", mutants) { mutant in
            await AsyncFileStoringConformance.run { FileReferenceStore.asyncSubject(mutant) }
        }
        #expect(uncaught.isEmpty, "no check catches \(uncaught)")
    }

    /// Every mutant but the races fails some check of `AsyncCryptStoringConformance`; the test prints the score.
    @Test func everyCryptMutantButTheRacesIsCaught() async {
        let mutants = CryptMutant.allCases.filter { !$0.isRace }
        let uncaught = await MutationHarness.uncaught(scoring: "AsyncCryptStoringConformance", mutants) { mutant in
            await AsyncCryptStoringConformance.run { CryptReferenceStore.asyncSubject(mutant) }
        }
        #expect(uncaught.isEmpty, "no check catches \(uncaught)")
    }
}
