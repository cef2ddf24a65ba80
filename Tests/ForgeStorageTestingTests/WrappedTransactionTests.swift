import ForgeCrypt
import ForgeFileStore
import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// A transaction through the event and fault wrappers: its writes are reported as the same writes made alone, timed as
/// the commit, and meet the faults those meet, before anything is applied; wrappers nested in each other each see it.
struct WrappedTransactionTests {
    private struct Refused: Error {}

    private static func succeeded(_ outcome: StoreEvent.Outcome) -> Bool {
        if case .succeeded = outcome { true } else { false }
    }

    @Test func aTransactionsWritesAreReportedAsTheSameWritesMadeAlone() async throws {
        let events = RecordedEvents()
        let settings = InMemoryKVStore().reportingEvents(label: "settings", to: events.handler)
        let files = InMemoryFileStore().reportingEvents(label: "files", to: events.handler)
        let secrets = InMemoryCrypt().reportingEvents(label: "secrets", to: events.handler)
        try await StorageTransaction.run { transaction in
            try transaction.set(KVKey<Int>("count"), value: 3, in: settings)
            try transaction.save(Data("{}".utf8), to: "report.json", in: files)
            try transaction.set("token", for: CryptKey<String>(key: "token"), in: secrets)
            try transaction.remove(KVKey<Int>("old"), in: settings)
        }
        let calls = events.calls
        #expect(calls.map(\.event.label) == ["settings", "files", "secrets", "settings"])
        #expect(calls.map(\.event.operation) == [.write, .write, .write, .delete])
        #expect(calls.map(\.event.target) == ["count", "report.json", nil, "old"], "a secret store names no key")
        #expect(calls.map(\.call.bytesWritten) == [1, 2, nil, nil])
        #expect(calls.allSatisfy { Self.succeeded($0.call.outcome) })
        #expect(settings.get(KVKey<Int>("count")) == 3)
    }

    /// The transaction asks a store's type for interceptors once; a wrapper of that store between its plain writes is
    /// still seen, and only its own write is reported.
    @Test func aWrapperStagedBetweenWritesOfTheStoreItWrapsReportsOnlyItsOwn() async throws {
        let events = RecordedEvents()
        let store = InMemoryKVStore()
        let wrapped = store.reportingEvents(label: "wrapped", to: events.handler)
        try await StorageTransaction.run { transaction in
            try transaction.set(KVKey<Int>("plain-before"), value: 1, in: store)
            try transaction.set(KVKey<Int>("wrapped"), value: 2, in: wrapped)
            try transaction.set(KVKey<Int>("plain-after"), value: 3, in: store)
            try transaction.set(KVKey<Int>("wrapped-again"), value: 4, in: wrapped)
        }
        #expect(events.calls.map(\.event.target) == ["wrapped", "wrapped-again"])
        #expect(try store.keys() == ["plain-after", "plain-before", "wrapped", "wrapped-again"])
    }

    @Test func theSynchronousFormReportsToo() throws {
        let events = RecordedEvents()
        let settings = InMemoryKVStore().reportingEvents(to: events.handler)
        try StorageTransaction.run { transaction in
            try transaction.set(KVKey<String>("user"), value: "ada", in: settings)
        }
        #expect(events.calls.map(\.event.target) == ["user"])
    }

    @Test func aTransactionThatFailsReportsItsWritesAsFailed() async throws {
        let events = RecordedEvents()
        let settings = InMemoryKVStore().reportingEvents(to: events.handler)
        await #expect(throws: Refused.self) {
            try await StorageTransaction.run { transaction in
                try transaction.set(KVKey<Int>("count"), value: 3, in: settings)
                try transaction.stageFailure(Refused(), in: settings)
            }
        }
        #expect(events.calls.map(\.event.target) == ["count"])
        #expect(events.calls.allSatisfy { !Self.succeeded($0.call.outcome) })
        #expect(settings.get(KVKey<Int>("count")) == nil)
    }

    @Test func aFaultOfAWrappedStoreFailsTheTransactionBeforeAnythingIsApplied() async throws {
        let faults = StoreFaults()
        let log = OperationLog()
        let settings = InMemoryKVStore().injectingFaults(faults, log: log, label: "settings")
        let files = InMemoryFileStore().injectingFaults(faults, label: "files")
        let secrets = InMemoryCrypt().injectingFaults(faults, label: "secrets")
        faults.failNext(.write, at: "report.json", with: .outOfSpace)
        await #expect(throws: FileStoreError.writeFailed(path: "report.json", reason: .outOfSpace)) {
            try await StorageTransaction.run { transaction in
                try transaction.set(KVKey<Int>("count"), value: 2, in: settings)
                try transaction.save(Data("{}".utf8), to: "report.json", in: files)
                try transaction.set("token", for: CryptKey<String>(key: "token"), in: secrets)
            }
        }
        #expect(settings.get(KVKey<Int>("count")) == nil)
        #expect(try await files.list(in: "").isEmpty)
        #expect(try secrets.get(CryptKey<String>(key: "token")) == nil)
        #expect(log.entries.map(\.target).contains("count"), "the transaction's write is logged as the store's own")
    }

    @Test func nestedWrappersEachSeeTheTransaction() async throws {
        let faults = StoreFaults()
        let events = RecordedEvents()
        let settings = InMemoryKVStore().injectingFaults(faults).reportingEvents(to: events.handler)
        faults.failNext(.delete, at: "old", with: .permissionDenied)
        await #expect(throws: KVStoreError.self) {
            try await StorageTransaction.run { transaction in
                try transaction.set(KVKey<Int>("count"), value: 2, in: settings)
                try transaction.remove(KVKey<Int>("old"), in: settings)
            }
        }
        #expect(events.calls.map(\.event.target) == ["count", "old"])
        #expect(events.calls.allSatisfy { !Self.succeeded($0.call.outcome) })
        #expect(settings.get(KVKey<Int>("count")) == nil)
    }

    @Test func aWrapperInsideTheFaultThatRefusesAChangeNeverSeesIt() async throws {
        let faults = StoreFaults()
        let events = RecordedEvents()
        let settings = InMemoryKVStore().reportingEvents(to: events.handler).injectingFaults(faults)
        faults.failNext(.write, at: "count", with: .outOfSpace)
        await #expect(throws: KVStoreError.self) {
            try await StorageTransaction.run { transaction in
                try transaction.set(KVKey<Int>("count"), value: 2, in: settings)
            }
        }
        #expect(events.calls.isEmpty, "the same write made alone fails before it reaches the reporter")
    }
}
