import ForgeCore
import ForgeKVStore
import ForgeTestSupport
import Foundation
import Testing

/// Every store, wrapped by `reportingDecodingFailures(to:)`, reports the values its `get` read as nil because they did
/// not decode to the handler; the store itself tells nobody.
struct KVDecodingFailureReportTests {
    typealias Handler = @Sendable (KVDecodingFailure) -> Void

    /// The failures a handler received, in order.
    final class Received: Sendable {
        private let failures = LockedState<[KVDecodingFailure]>([])

        var all: [KVDecodingFailure] { failures.withLock { $0 } }

        var handler: Handler { { failure in self.failures.withLock { $0.append(failure) } } }
    }

    /// A store of each kind, and the same store reporting to a handler.
    enum Reporter: String, CaseIterable, CustomTestStringConvertible {
        case memory, disk, defaults, reactiveOverDisk, reportingUnderReactive

        var testDescription: String { rawValue }

        /// Runs `body` with a fresh store, the same store wrapped by `reportingDecodingFailures(to:)`, and what that
        /// wrapper's handler received.
        func withStore(_ body: (any KVStoring, _ reporting: any KVStoring, Received) async throws -> Void) async throws
        {
            let received = Received()
            switch self {
            case .memory:
                let store = InMemoryKVStore()
                try await body(store, store.reportingDecodingFailures(to: received.handler), received)
            case .disk, .reactiveOverDisk, .reportingUnderReactive:
                try await withTemporaryFolder { folder in
                    let disk = DiskKVStore(directory: .custom(folder), namespace: "reports")
                    switch self {
                    case .disk: try await body(disk, disk.reportingDecodingFailures(to: received.handler), received)
                    case .reactiveOverDisk:
                        let reactive = ReactiveKVStore(disk)
                        try await body(reactive, reactive.reportingDecodingFailures(to: received.handler), received)
                    default:
                        let reporting = disk.reportingDecodingFailures(to: received.handler)
                        try await body(disk, ReactiveKVStore(reporting), received)
                    }
                }
            case .defaults:
                let suite = "forge.tests.reports.\(UUID().uuidString)"
                defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
                let store = UserDefaultsKVStore(suiteName: suite)
                try await body(store, store.reportingDecodingFailures(to: received.handler), received)
            }
        }
    }

    struct Settings: Codable, Sendable, Equatable {
        var theme: String
        var fontSize: Int
    }

    @Test(arguments: Reporter.allCases)
    func aGetThatReadsAnUndecodableValueAsNilReportsTheKeyTypeAndError(reporter: Reporter) async throws {
        try await reporter.withStore { _, store, received in
            try store.set(KVKey<String>("settings"), value: "dark")

            #expect(store.get(KVKey<Settings>("settings")) == nil)
            let failure = try #require(received.all.first)
            #expect(received.all.count == 1)
            #expect(failure.key == "settings")
            #expect(failure.expectedType == "Settings")
            guard case .decodingFailed(let key, let underlying) = failure.error else {
                Issue.record("expected decodingFailed, got \(failure.error)")
                return
            }
            #expect(key == "settings")
            #expect(!underlying.description.isEmpty)
            #expect(failure.description.contains("'settings'") && failure.description.contains("Settings"))
        }
    }

    @Test(arguments: Reporter.allCases)
    func missingValuesAndValuesThatDecodeAreNotReported(reporter: Reporter) async throws {
        try await reporter.withStore { _, store, received in
            try store.set(KVKey<Int>("count"), value: 3)

            #expect(store.get(KVKey<Int>("count")) == 3)
            #expect(store.get(KVKey<Int>("never.set")) == nil)
            #expect(received.all.isEmpty)
        }
    }

    @Test(arguments: Reporter.allCases)
    func aMigratedReadIsNotReportedAndAFailedMigrationNamesTheKeyRead(reporter: Reporter) async throws {
        try await reporter.withStore { _, store, received in
            try store.set(KVKey<String>("theme"), value: "dark")
            let migrated = KVKey<Settings>(
                "settings",
                migrations: .from(String.self, key: "theme") { Settings(theme: $0, fontSize: 12) }
            )
            #expect(store.get(migrated) == Settings(theme: "dark", fontSize: 12))
            #expect(received.all.isEmpty)

            try store.set(KVKey<Int>("theme"), value: 1)
            #expect(store.get(migrated) == nil)
            #expect(received.all.map(\.key) == ["settings"])
            #expect(received.all.first?.error.key == "theme")
        }
    }

    @Test(arguments: Reporter.allCases)
    func theStoreItselfTellsNobodyAndTheWrapperTellsItsHandler(reporter: Reporter) async throws {
        try await reporter.withStore { plain, reporting, received in
            try plain.set(KVKey<String>("flag"), value: "yes")

            #expect(plain.get(KVKey<Bool>("flag")) == nil)
            #expect(received.all.isEmpty)
            #expect(reporting.get(KVKey<Bool>("flag")) == nil)
            #expect(received.all.map(\.key) == ["flag"])
        }
    }

    @Test func anAsyncGetThroughTheWrapperReportsAsTheSynchronousOneDoes() async throws {
        let received = Received()
        let store: any AsyncKVStoring = InMemoryKVStore().reportingDecodingFailures(to: received.handler)
        try await store.set(KVKey<String>("flag"), value: "yes")

        #expect(try await store.get(KVKey<Bool>("flag")) == nil)
        #expect(received.all.map(\.expectedType) == ["Bool"])
    }

    @Test(arguments: Reporter.allCases)
    func valueForThrowsInsteadOfReporting(reporter: Reporter) async throws {
        try await reporter.withStore { _, store, received in
            try store.set(KVKey<String>("flag"), value: "yes")

            #expect(throws: KVStoreError.self) { try store.value(for: KVKey<Bool>("flag")) }
            #expect(received.all.isEmpty, "the caller of value(for:) is told; the handler hears only of get's nils")
        }
    }
}
