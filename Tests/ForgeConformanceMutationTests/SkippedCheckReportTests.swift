import ForgeStorageTesting
import Testing

/// What a run of a whole suite says about the checks its subject cannot run: nothing when every other check passes,
/// and one warning naming them when one fails.
struct SkippedCheckReportTests {
    @Test func aPassingRunOfABareStoreRecordsNoIssueAtAll() async {
        let issues = await MutationHarness.issues {
            await KVStoringConformance.run { ReferenceKVStore() }
        }
        #expect(issues.failures.isEmpty && issues.warnings.isEmpty, "\(issues)")
    }

    @Test func aFailingRunOfABareStoreNamesTheSkippedChecksInOneWarning() async {
        let issues = await MutationHarness.issues {
            await KVStoringConformance.run { ReferenceKVStore(mutant: .keepsTheFirstValue) }
        }
        #expect(!issues.failures.isEmpty)
        #expect(issues.warnings.count == 1)
        #expect(issues.warnings.first?.contains("Skipped 2 conformance checks") == true, "\(issues.warnings)")
    }
}
