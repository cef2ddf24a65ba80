import ForgeCore
import ForgeKVStore
import ForgeTestSupport
import Foundation
import Testing

/// Each shipped store reports the values its `get` read as nil because they did not decode, to the handler an app
/// gives it, and to nobody when it was given none.
struct KVDecodingFailureReportTests {
    typealias Handler = @Sendable (KVDecodingFailure) -> Void

    /// The failures a handler received, in order.
    final class Received: Sendable {
        private let failures = LockedState<[KVDecodingFailure]>([])

        var all: [KVDecodingFailure] { failures.withLock { $0 } }

        var handler: Handler { { failure in self.failures.withLock { $0.append(failure) } } }
    }

    /// A store of each kind that reports, and the call that gives it a handler.
    enum Reporter: String, CaseIterable, CustomTestStringConvertible {
        case memory, disk, defaults, reactiveOverDisk

        var testDescription: String { rawValue }

        func withStore(_ body: (any KVStoring, _ report: (Handler?) -> Void) async throws -> Void) async throws {
            switch self {
            case .memory:
                let store = InMemoryKVStore()
                try await body(store) { store.reportDecodingFailures(to: $0) }
            case .disk, .reactiveOverDisk:
                try await withTemporaryFolder { folder in
                    let disk = DiskKVStore(directory: .custom(folder), namespace: "reports")
                    try await body(self == .disk ? disk : ReactiveKVStore(disk)) { disk.reportDecodingFailures(to: $0) }
                }
            case .defaults:
                let suite = "forge.tests.reports.\(UUID().uuidString)"
                defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
                let store = UserDefaultsKVStore(suiteName: suite)
                try await body(store) { store.reportDecodingFailures(to: $0) }
            }
        }
    }

    struct Settings: Codable, Sendable, Equatable {
        var theme: String
        var fontSize: Int
    }

    @Test(arguments: Reporter.allCases)
    func aGetThatReadsAnUndecodableValueAsNilReportsTheKeyTypeAndError(reporter: Reporter) async throws {
        try await reporter.withStore { store, report in
            let received = Received()
            report(received.handler)
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
        try await reporter.withStore { store, report in
            let received = Received()
            report(received.handler)
            try store.set(KVKey<Int>("count"), value: 3)

            #expect(store.get(KVKey<Int>("count")) == 3)
            #expect(store.get(KVKey<Int>("never.set")) == nil)
            #expect(received.all.isEmpty)
        }
    }

    @Test(arguments: Reporter.allCases)
    func aMigratedReadIsNotReportedAndAFailedMigrationNamesTheKeyRead(reporter: Reporter) async throws {
        try await reporter.withStore { store, report in
            let received = Received()
            report(received.handler)
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
    func nobodyIsToldUntilAHandlerIsGivenAndAfterItIsTakenAway(reporter: Reporter) async throws {
        try await reporter.withStore { store, report in
            let received = Received()
            try store.set(KVKey<String>("flag"), value: "yes")

            #expect(store.get(KVKey<Bool>("flag")) == nil)
            report(received.handler)
            #expect(store.get(KVKey<Bool>("flag")) == nil)
            report(nil)
            #expect(store.get(KVKey<Bool>("flag")) == nil)
            #expect(received.all.count == 1)
        }
    }

    @Test(arguments: Reporter.allCases)
    func valueForThrowsInsteadOfReporting(reporter: Reporter) async throws {
        try await reporter.withStore { store, report in
            let received = Received()
            report(received.handler)
            try store.set(KVKey<String>("flag"), value: "yes")

            #expect(throws: KVStoreError.self) { try store.value(for: KVKey<Bool>("flag")) }
            #expect(received.all.isEmpty, "the caller of value(for:) is told; the handler hears only of get's nils")
        }
    }
}
