import ForgeCrypt
import ForgeFileStore
import ForgeKVStore
import ForgeStorageTesting
import Testing

/// The asynchronous suites: each is its synchronous twin without the checks that need real threads, the checks
/// defined once, and their run-everything entry points work as a user in another package would call them.
struct AsyncConformanceSuiteTests {
    @Test func eachAsyncSuiteIsItsSynchronousTwinWithoutTheThreadChecks() {
        let kv = AsyncKVStoringConformance.checks.map(\.name)
        let files = AsyncFileStoringConformance.checks.map(\.name)
        let secrets = AsyncCryptStoringConformance.checks.map(\.name)
        #expect(kv.count == 28)
        #expect(files.count == 27)
        #expect(secrets.count == 16)
        for names in [kv, files, secrets] {
            #expect(Set(names).count == names.count)
        }
        #expect(KVStoringConformance.checks.map(\.name).filter { !kv.contains($0) }.count == 2)
        #expect(FileStoringConformance.checks.map(\.name).filter { !files.contains($0) }.count == 3)
        #expect(CryptStoringConformance.checks.map(\.name).filter { !secrets.contains($0) }.count == 2)
        #expect(kv.allSatisfy(KVStoringConformance.checks.map(\.name).contains))
        #expect(files.allSatisfy(FileStoringConformance.checks.map(\.name).contains))
        #expect(secrets.allSatisfy(CryptStoringConformance.checks.map(\.name).contains))
    }

    @Test func theStoreAloneSkipsExactlyTheChecksThatNeedASecondHandleOrANeighbour() {
        let alone = AsyncKVStoringConformance.Subject(InMemoryKVStore())
        let skipped = AsyncKVStoringConformance.checks.filter { $0.skipReason(for: alone) != nil }.map(\.name)
        #expect(
            skipped == [
                "a second handle sees every write and remove", "removeAll and remove leave a neighbouring store alone",
            ]
        )
    }

    @Test func aLoggedKVStorePassesTheAsyncKVSuite() async {
        await AsyncKVStoringConformance.run(makeSubject: {
            let log = OperationLog()
            return AsyncKVStoringConformance.Subject(
                InMemoryKVStore(log: log),
                neighbour: InMemoryKVStore(log: log)
            )
        })
    }

    @Test func aLoggedFileStorePassesTheAsyncFileSuite() async {
        await AsyncFileStoringConformance.run { InMemoryFileStore(log: OperationLog()) }
    }

    @Test func aLoggedSecretStorePassesTheAsyncSecretSuite() async {
        await AsyncCryptStoringConformance.run {
            let log = OperationLog()
            return AsyncCryptStoringConformance.Subject(InMemoryCrypt(log: log), neighbour: InMemoryCrypt(log: log))
        }
    }

    @Test(arguments: AsyncKVStoringConformance.checks)
    func aParameterizedTestRunsEachCheck(check: AsyncKVStoringConformance.Check) async throws {
        let store = InMemoryKVStore()
        try await check.run(
            on: AsyncKVStoringConformance.Subject(store, reopen: { store }, neighbour: InMemoryKVStore())
        )
    }
}
