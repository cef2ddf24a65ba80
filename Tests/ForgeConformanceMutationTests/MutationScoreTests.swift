import Testing

/// The mutation score the DocC article "Testing your own store" states: change them with the mutants.
///
/// That every mutant is caught is the protocols' own mutation tests; this pins how many there are.
struct MutationScoreTests {
    @Test func theDocumentedScoreCountsEveryMutant() {
        #expect(KVMutant.allCases.count == 24)
        #expect(FileMutant.allCases.count == 22)
        #expect(CryptMutant.allCases.count == 26)
        #expect(ExpiryMutant.allCases.count == 2)
        // The asynchronous suites are held to every mutant but the races.
        #expect(KVMutant.races.count + FileMutant.races.count + CryptMutant.allCases.filter(\.isRace).count == 8)
    }
}
