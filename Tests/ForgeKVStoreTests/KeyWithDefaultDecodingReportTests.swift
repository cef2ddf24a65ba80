import ForgeKVStore
import Testing

/// A read through a key with a default of a value that does not decode returns the default, and a store made by
/// `reportingDecodingFailures(to:)` reports it first, as for the key without its default.
struct KeyWithDefaultDecodingReportTests {
    typealias Reporter = KVDecodingFailureReportTests.Reporter
    typealias Received = KVDecodingFailureReportTests.Received
    typealias Settings = KVDecodingFailureReportTests.Settings

    static let settings = KVKeyWithDefault("settings", default: Settings(theme: "light", fontSize: 12))

    @Test(arguments: Reporter.allCases)
    func aReadOfAValueThatDoesNotDecodeReturnsTheDefaultAndIsReported(reporter: Reporter) async throws {
        try await reporter.withStore { plain, store, received in
            try store.set(KVKey<String>("settings"), value: "dark")

            #expect(plain.get(Self.settings) == Settings(theme: "light", fontSize: 12))
            #expect(received.all.isEmpty, "the store itself tells nobody")
            #expect(store.get(Self.settings) == Settings(theme: "light", fontSize: 12))
            let failure = try #require(received.all.first)
            #expect(received.all.count == 1)
            #expect(failure.key == "settings")
            #expect(failure.expectedType == "Settings")
            #expect(failure.error.key == "settings")
        }
    }

    @Test(arguments: Reporter.allCases)
    func theDefaultOfAKeyThatHoldsNothingIsNotReported(reporter: Reporter) async throws {
        try await reporter.withStore { _, store, received in
            #expect(store.get(Self.settings) == Settings(theme: "light", fontSize: 12))
            try store.set(Self.settings, value: Settings(theme: "dark", fontSize: 14))
            #expect(store.get(Self.settings) == Settings(theme: "dark", fontSize: 14))
            #expect(received.all.isEmpty)
        }
    }

    @Test(arguments: Reporter.allCases)
    func valueForThrowsInsteadOfReporting(reporter: Reporter) async throws {
        try await reporter.withStore { _, store, received in
            try store.set(KVKey<String>("settings"), value: "dark")
            #expect(throws: KVStoreError.self) { try store.value(for: Self.settings) }
            #expect(received.all.isEmpty)
        }
    }

    @Test func anAsyncReadThroughTheWrapperReportsAsTheSynchronousOneDoes() async throws {
        let received = Received()
        let backend = AsyncTableKVStore(table: TableKVStore.Table(), namespace: "store")
        let store: any AsyncKVStoring = backend.reportingDecodingFailures(to: received.handler)
        try await store.set(KVKey<String>("settings"), value: "dark")

        #expect(try await store.get(Self.settings) == Settings(theme: "light", fontSize: 12))
        #expect(received.all.map(\.key) == ["settings"])
        #expect(received.all.map(\.expectedType) == ["Settings"])
    }
}
