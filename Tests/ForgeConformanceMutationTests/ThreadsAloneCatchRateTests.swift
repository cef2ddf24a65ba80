import ForgeFileStore
import ForgeKVStore
import ForgeStorageTesting
import Foundation
import Testing

/// How often the concurrency checks' threads alone, without a ``RaceGate``, catch each race mutant: what they do
/// for a real store, whose race has no gate to park at.
///
/// The figure depends on the machine and its load, so these tests run only with `FORGE_TIMING_TESTS=1` (as the
/// package's other timing tests, see `TimingTests` in ForgeTestSupport), and print it rather than fail on it. That
/// every race mutant is caught is `everyRaceIsCaughtInEveryRun`, through the gate, in the default test run.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["FORGE_TIMING_TESTS"] == "1", "set FORGE_TIMING_TESTS=1"))
struct ThreadsAloneCatchRateTests {
    /// How many runs each measurement makes.
    static let runs = 20

    /// Prints how many of ``runs`` runs of `checks` against a mutant's gateless subject caught it.
    private static func measure<Subject: Sendable>(
        _ mutant: some CustomStringConvertible & Sendable,
        checks: [ConformanceCheck<Subject>],
        subject: @escaping @Sendable () -> Subject
    ) async {
        let caught = await MutationHarness.catches(in: runs) {
            for check in checks { try await check.run(on: subject()) }
        }
        print("Threads alone caught \(mutant) in \(caught) of \(runs) runs")
    }

    @Test func kvRaces() async {
        let checks = KVStoringConformance.checks.filter { $0.name.contains("thread") || $0.name.contains("reader") }
        for mutant in KVMutant.races {
            await Self.measure(mutant.rawValue, checks: checks) {
                var subject = ReferenceKVStore(mutant: mutant).subject()
                subject.raceGate = nil
                return subject
            }
        }
    }

    @Test func fileRaces() async {
        let checks = FileStoringConformance.checks.filter {
            $0.name.contains("four threads") || $0.name.contains("another thread")
        }
        for mutant in FileMutant.races {
            await Self.measure(mutant.rawValue, checks: checks) {
                var subject = FileReferenceStore.subject(mutant)
                subject.raceGate = nil
                return subject
            }
        }
    }

    @Test func cryptRaces() async {
        for mutant in CryptMutant.allCases.filter(\.isRace) {
            await Self.measure(mutant.rawValue, checks: CryptMutationTests.concurrencyChecks) {
                var subject = CryptMutationTests.fullSubject(mutant)
                subject.raceGate = nil
                return subject
            }
        }
    }
}
