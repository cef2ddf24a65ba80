import ForgeKVStore
import ForgeStorageTesting
import Testing

/// The wrappers any store can be put in pass the conformance suites as the store does.
///
/// They are `reportingDecodingFailures(to:)` and `injectingFaults(_:log:label:)` with faults that never fire, each
/// over a synchronous and an asynchronous store. The suites' checks of keys with a default are among the checks, so
/// the wrappers have those reads and writes as every store has.
struct WrappedKVStoreConformanceTests {
    /// Faults at a key no check uses: every call is asked, none fails.
    private static func unusedFaults() -> StoreFaults {
        StoreFaults([.always(.all, at: "never.used", with: .outOfSpace)])
    }

    @Test func aReportingStorePassesBothSuites() async {
        await KVStoringConformance.run(makeSubject: {
            let table = TableKVStore.Table()
            return KVStoringConformance.Subject(
                TableKVStore(table: table, namespace: "store").reportingDecodingFailures { _ in },
                reopen: { TableKVStore(table: table, namespace: "store").reportingDecodingFailures { _ in } },
                neighbour: TableKVStore(table: table, namespace: "neighbour").reportingDecodingFailures { _ in }
            )
        })
        await AsyncKVStoringConformance.run(makeSubject: {
            let table = TableKVStore.Table()
            return AsyncKVStoringConformance.Subject(
                AsyncTableKVStore(table: table, namespace: "store").reportingDecodingFailures { _ in },
                reopen: { AsyncTableKVStore(table: table, namespace: "store").reportingDecodingFailures { _ in } },
                neighbour: AsyncTableKVStore(table: table, namespace: "neighbour").reportingDecodingFailures { _ in }
            )
        })
    }

    @Test func aFaultInjectingStorePassesBothSuites() async {
        await KVStoringConformance.run(makeSubject: {
            let table = TableKVStore.Table()
            return KVStoringConformance.Subject(
                TableKVStore(table: table, namespace: "store").injectingFaults(Self.unusedFaults()),
                reopen: { TableKVStore(table: table, namespace: "store").injectingFaults(Self.unusedFaults()) },
                neighbour: TableKVStore(table: table, namespace: "neighbour").injectingFaults(Self.unusedFaults())
            )
        })
        await AsyncKVStoringConformance.run(makeSubject: {
            let table = TableKVStore.Table()
            return AsyncKVStoringConformance.Subject(
                AsyncTableKVStore(table: table, namespace: "store").injectingFaults(Self.unusedFaults()),
                reopen: { AsyncTableKVStore(table: table, namespace: "store").injectingFaults(Self.unusedFaults()) },
                neighbour: AsyncTableKVStore(table: table, namespace: "neighbour").injectingFaults(Self.unusedFaults())
            )
        })
    }
}
