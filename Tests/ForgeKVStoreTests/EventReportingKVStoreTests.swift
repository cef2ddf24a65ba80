import ForgeCore
import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// `reportingEvents(label:to:)` on key-value stores: the wrapped stores pass both suites as the stores do, and each
/// call, value that does not decode and migration is reported once, in the caller's task.
struct EventReportingKVStoreTests {
    private static let count = KVKey<Int>("count")

    @TaskLocal static var request: String?

    // MARK: - The suites

    @Test func aReportingMemoryStorePassesBothSuites() async {
        await KVStoringConformance.run { KVStoringConformance.Subject(InMemoryKVStore().reportingEvents { _ in }) }
        await AsyncKVStoringConformance.run {
            AsyncKVStoringConformance.Subject(InMemoryKVStore().reportingEvents { _ in })
        }
    }

    @Test func aReportingDiskStorePassesBothSuites() async throws {
        try await withTemporaryFolder { folder in
            @Sendable func open(_ namespace: String) -> InterceptedKVStore<DiskKVStore> {
                DiskKVStore(directory: .custom(folder), namespace: namespace).reportingEvents { _ in }
            }
            await KVStoringConformance.run {
                let namespace = UUID().uuidString
                return KVStoringConformance.Subject(
                    open(namespace),
                    reopen: { open(namespace) },
                    neighbour: open(namespace + ".neighbour")
                )
            }
            await AsyncKVStoringConformance.run {
                let namespace = UUID().uuidString
                return AsyncKVStoringConformance.Subject(
                    open(namespace),
                    reopen: { open(namespace) },
                    neighbour: open(namespace + ".neighbour")
                )
            }
        }
    }

    @Test func aReportingAsyncStorePassesTheAsyncSuite() async {
        await AsyncKVStoringConformance.run {
            let table = TableKVStore.Table()
            @Sendable func open(_ namespace: String) -> some AsyncKVStoring {
                AsyncTableKVStore(table: table, namespace: namespace).reportingEvents { _ in }
            }
            return AsyncKVStoringConformance.Subject(open("store"), reopen: { open("store") }, neighbour: open("other"))
        }
    }

    // MARK: - Calls

    @Test func aSetAndAGetReportAWriteAndAReadOfTheKeyWithTheirBytes() throws {
        let events = RecordedEvents()
        let store = InMemoryKVStore().reportingEvents(label: "settings", to: events.handler)

        try store.set(Self.count, value: 42)
        #expect(store.get(Self.count) == 42)
        _ = store.contains(Self.count)
        try store.remove(Self.count)
        _ = try store.keys()
        try store.removeAll()

        let calls = events.calls
        #expect(calls.map(\.event.operation) == [.write, .read, .exists, .delete, .list, .deleteAll])
        #expect(calls.map(\.event.target) == ["count", "count", "count", "count", nil, nil])
        #expect(calls.allSatisfy { $0.event.store == .keyValue && $0.event.label == "settings" })
        #expect(calls.allSatisfy { $0.call.failure == nil && $0.call.duration >= .zero })
        #expect(calls[0].call.bytesWritten == 2 && calls[0].call.bytesRead == nil)
        #expect(calls[1].call.bytesRead == 2 && calls[1].call.bytesWritten == nil)
        #expect(calls.allSatisfy { $0.call.start <= $0.call.end })
    }

    @Test func aReadOfNothingReportsNoBytes() {
        let events = RecordedEvents()
        let store = InMemoryKVStore().reportingEvents(to: events.handler)

        #expect(store.get(Self.count) == nil)

        #expect(events.calls.map(\.call.bytesRead) == [nil])
        #expect(events.calls.map(\.event.label) == ["kv"])
    }

    @Test func aFailedCallReportsItsCodeItsReasonAndItsError() throws {
        let faults = StoreFaults()
        let events = RecordedEvents()
        let store = InMemoryKVStore(faults: faults).reportingEvents(to: events.handler)
        faults.failNext(.write, with: .outOfSpace)

        #expect(throws: KVStoreError.writeFailed(key: "count", underlying: .outOfSpace)) {
            try store.set(Self.count, value: 1)
        }

        let failure = try #require(events.calls.first?.call.failure)
        #expect(failure.code == "writeFailed")
        #expect(failure.reason == .outOfSpace)
        #expect(failure.error as? KVStoreError == .writeFailed(key: "count", underlying: .outOfSpace))
        #expect(failure.description.contains("'count'"))
    }

    @Test func anErrorOfAStoreOfYourOwnIsReportedByItsType() {
        let events = RecordedEvents()
        let store = InMemoryKVStore(faults: StoreFaults([.always(.read, with: .error(CancellationError()))]))
            .reportingEvents(to: events.handler)

        #expect(throws: CancellationError.self) { try store.value(for: Self.count) }

        let failure = events.calls.first?.call.failure
        #expect(failure?.code == "CancellationError")
        #expect(failure?.reason == nil)
        #expect(failure?.error is CancellationError)
    }

    // MARK: - Above the storage

    @Test func aValueThatDoesNotDecodeIsReportedByGetAndByValueFor() throws {
        let events = RecordedEvents()
        let store = InMemoryKVStore().reportingEvents(label: "settings", to: events.handler)
        try store.set(KVKey<String>("count"), value: "many")

        #expect(store.get(Self.count) == nil)
        #expect(throws: KVStoreError.self) { try store.value(for: Self.count) }

        let reported = events.notDecoded
        #expect(reported.map(\.failure.readAsNil) == [true, false])
        #expect(reported.allSatisfy { $0.event.target == "count" && $0.event.operation == .read })
        #expect(reported.allSatisfy { $0.failure.expectedType == "Int" && $0.failure.storedName == "count" })
        // The old hook is the new one, filtered: only what `get` read as nil.
        let failures = events.all.compactMap(KVDecodingFailure.init)
        #expect(failures.map(\.key) == ["count"])
        #expect(failures.first?.expectedType == "Int")
        if case .decodingFailed(let name, _) = failures.first?.error {
            #expect(name == "count")
        } else {
            Issue.record("not decodingFailed: \(String(describing: failures.first?.error))")
        }
    }

    @Test func aReadAMigrationServesIsReportedAfterTheReadsOfEachName() throws {
        let events = RecordedEvents()
        let store = InMemoryKVStore().reportingEvents(to: events.handler)
        let renamed = KVKey<String>("label", migrations: .from(Int.self, key: "count") { "#\($0)" })
        try store.set(Self.count, value: 7)
        events.removeAll()

        #expect(store.get(renamed) == "#7")

        #expect(events.calls.map(\.event.target) == ["label", "count"])
        let migration = try #require(events.migrations.first)
        #expect(events.migrations.count == 1)
        #expect(migration.event.target == "label")
        #expect(migration.migration == .init(storedName: "count", olderType: "Int", currentType: "String"))
        guard case .migrationApplied = events.all.last?.kind else {
            Issue.record("the migration is not the last event")
            return
        }
    }

    @Test func aValueOfTheCurrentTypeReportsNoMigration() throws {
        let events = RecordedEvents()
        let store = InMemoryKVStore().reportingEvents(to: events.handler)
        let renamed = KVKey<Int>("total", migrations: .renamed(from: "count"))
        try store.set(renamed, value: 3)

        #expect(store.get(renamed) == 3)

        #expect(events.migrations.isEmpty && events.notDecoded.isEmpty)
    }

    // MARK: - The asynchronous form

    @Test func anAsyncStoreReportsOneReadForAKeyAndItsOlderNames() async throws {
        let events = RecordedEvents()
        let store = AsyncTableKVStore(table: TableKVStore.Table(), namespace: "store")
            .reportingEvents(label: "remote", to: events.handler)
        let renamed = KVKey<String>("label", migrations: .from(Int.self, key: "count") { "#\($0)" })
        try await store.set(Self.count, value: 7)

        #expect(try await store.get(renamed) == "#7")
        #expect(try await store.contains(renamed))
        try await store.remove(renamed)

        let calls = events.calls
        #expect(calls.map(\.event.operation) == [.write, .read, .exists, .delete])
        #expect(calls.map(\.event.target) == ["count", "label", "label", "label"])
        #expect(calls[1].call.bytesRead == 1)
        #expect(events.migrations.map(\.migration.storedName) == ["count"])
    }

    @Test func anAsyncStoreReportsAValueThatDoesNotDecode() async throws {
        let events = RecordedEvents()
        let store = AsyncTableKVStore(table: TableKVStore.Table(), namespace: "store")
            .reportingEvents(to: events.handler)
        try await store.set(KVKey<String>("count"), value: "many")

        #expect(try await store.get(Self.count) == nil)
        await #expect(throws: KVStoreError.self) { try await store.value(for: Self.count) }
        #expect(try await store.get(KVKeyWithDefault(Self.count, default: 5)) == 5)

        #expect(events.notDecoded.map(\.failure.readAsNil) == [true, false, true])
    }

    @Test func theHandlerRunsInTheCallersTask() async throws {
        let seen = LockedState<[String?]>([])
        let store = AsyncTableKVStore(table: TableKVStore.Table(), namespace: "store")
            .reportingEvents { _ in seen.withLock { $0.append(Self.request) } }

        try await Self.$request.withValue("request-1") {
            try await store.set(Self.count, value: 1)
        }
        try await store.set(Self.count, value: 2)

        #expect(seen.withLock { $0 } == ["request-1", nil])
    }

    // MARK: - What passes through

    @Test func theWrappedStoresChangesAndStreamsPassThrough() async throws {
        let memory = InMemoryKVStore()
        let store = memory.reportingEvents { _ in }
        try await confirmation { changed in
            let observation = store.observeChanges { key in if key == "count" { changed() } }
            try memory.set(Self.count, value: 1)
            withExtendedLifetime(observation) {}
        }
        let reactive = ReactiveKVStore(store)
        var values = reactive.stream(Self.count).makeAsyncIterator()
        #expect(await values.next() == .some(1))
    }
}

/// A reclaim of expired values is reported as a call and, when it removed any, with their number.
struct EventReportingReclaimTests {
    @Test func aReclaimReportsItsCallAndTheNumberItRemoved() throws {
        let clock = ManualExpiryClock()
        let events = RecordedEvents()
        let store = InMemoryKVStore(expiry: KVExpiry(clock: clock))
            .reportingEvents(label: "sessions", to: events.handler)
        try store.set(KVKey<Int>("a"), value: 1, expiresAfter: .seconds(1))
        try store.set(KVKey<Int>("b"), value: 2, expiresAfter: .seconds(1))
        clock.advance(by: .seconds(1))
        #expect(try store.reclaimExpiredValues(limit: 10) == 2)
        let reclaims = events.all.filter { $0.operation == .reclaimExpired }
        #expect(reclaims.count == 2, "the call, then the number")
        guard case .expiredValuesReclaimed(let count) = reclaims.last?.kind else {
            Issue.record("no count of reclaimed values")
            return
        }
        #expect(count == 2)
    }
}
