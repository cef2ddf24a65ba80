import ForgeCrypt
import ForgeFileStore
import ForgeKVStore
import ForgeStorageTesting
import Testing

/// A store with a log and faults that never fire still behaves exactly like a plain one; and the suites'
/// run-everything entry point works as a user would call it.
struct InstrumentedStoreConformanceTests {
    @Test func aLoggedKVStoreWithUnusedFaultsPassesTheKVSuite() async {
        await KVStoringConformance.run {
            InMemoryKVStore(
                faults: StoreFaults([.always(.all, at: "never.used", with: .outOfSpace)]),
                log: OperationLog()
            )
        }
    }

    @Test func aLoggedFileStoreWithUnusedFaultsPassesTheFileSuite() async {
        await FileStoringConformance.run {
            InMemoryFileStore(
                faults: StoreFaults([.always(.all, at: "never/used", with: .outOfSpace)]),
                log: OperationLog()
            )
        }
    }

    @Test func aLoggedSecretStoreWithUnusedFaultsPassesTheSecretSuite() async {
        await CryptStoringConformance.run {
            let log = OperationLog()
            return CryptStoringConformance.Subject(
                InMemoryCrypt(faults: StoreFaults([.always(.all, at: "never.used", with: .deviceLocked)]), log: log),
                neighbour: InMemoryCrypt(log: log)
            )
        }
    }

    @Test func everySuiteNamesItsChecksAsDistinctSentences() {
        let names =
            KVStoringConformance.checks.map(\.name) + FileStoringConformance.checks.map(\.name)
            + CryptStoringConformance.checks.map(\.name)
        #expect(KVStoringConformance.checks.count == 30)
        #expect(FileStoringConformance.checks.count == 30)
        #expect(CryptStoringConformance.checks.count == 18)
        #expect(Set(KVStoringConformance.checks.map(\.name)).count == 30)
        #expect(names.allSatisfy { $0.first?.isLowercase == true && !$0.hasSuffix(".") })
        #expect(
            KVStoringConformance.checks.map(\.testDescription)
                .contains("remove makes the key unset and keeps the others")
        )
    }
}
