import Testing

/// The mutation score README.md and the DocC article "Testing your own store" state: change them with the mutants.
///
/// That every mutant is caught is the protocols' own mutation tests; this pins how many there are.
struct MutationScoreTests {
    @Test func theDocumentedScoreCountsEveryMutant() {
        #expect(KVMutant.allCases.count == 21)
        #expect(FileMutant.allCases.count == 20)
        #expect(CryptMutant.allCases.count == 24)
    }
}
