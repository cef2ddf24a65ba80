import ForgeObservability
import ForgeStorage
import ForgeStorageTesting
import InMemoryLogging
import Logging
import Testing

/// What ``StoreObservability`` logs: each event at the level of its kind, with the store, its label, the operation and
/// the key or path; a secret store's key redacted.
struct StoreObservabilityLoggingTests {
    private static let count = KVKey<Int>("count")

    @Test func aCallThatSucceededIsLoggedAtTraceWithItsKeyAndBytes() throws {
        let observed = ObservedStores()
        let store = InMemoryKVStore().reportingEvents(label: "settings", to: observed.observability.record)

        try store.set(Self.count, value: 42)

        let entry = try #require(observed.logs.entries.first)
        #expect(observed.logs.entries.count == 1)
        #expect(entry.level == .trace)
        #expect(entry.message == "kv write")
        #expect(entry.metadata["forge.store"] == "kv")
        #expect(entry.metadata["forge.label"] == "settings")
        #expect(entry.metadata["forge.operation"] == "write")
        #expect(entry.metadata["forge.key"] == "count")
        #expect(entry.metadata["forge.bytes_written"]?.description == "2")
        #expect(entry.metadata["forge.duration_ns"] != nil)
    }

    @Test func aCallThatFailedIsLoggedAtErrorWithItsReasonAndError() throws {
        let faults = StoreFaults()
        let observed = ObservedStores()
        let store = InMemoryKVStore(faults: faults).reportingEvents(to: observed.observability.record)
        faults.failNext(.write, with: .outOfSpace)

        #expect(throws: KVStoreError.self) { try store.set(Self.count, value: 1) }

        let entry = try #require(observed.logs.entries.first)
        #expect(entry.level == .error)
        #expect(entry.message == "kv write failed")
        #expect(entry.metadata["forge.key"] == "count")
        #expect(entry.metadata["forge.reason"] == "outOfSpace")
        #expect(entry.error as? KVStoreError == .writeFailed(key: "count", underlying: .outOfSpace))
    }

    @Test func aFileStoreIsLoggedWithItsPath() async throws {
        let observed = ObservedStores()
        let store = InMemoryFileStore().reportingEvents(label: "documents", to: observed.observability.record)

        try await store.save(Data("hello".utf8), to: "notes/today.txt")

        #expect(observed.logs.entries.first?.metadata["forge.path"] == "notes/today.txt")
        #expect(observed.logs.entries.first?.metadata["forge.key"] == nil)
    }

    @Test func aValueThatDidNotDecodeIsAWarningAndAMigrationADebugRecord() throws {
        let observed = ObservedStores()
        let store = InMemoryKVStore().reportingEvents(to: observed.observability.record)
        try store.set(KVKey<String>("count"), value: "many")
        try store.set(KVKey<Int>("old"), value: 3)

        #expect(store.get(Self.count) == nil)
        #expect(store.get(KVKey<Int>("new", migrations: .renamed(from: "old"))) == 3)

        let notDecoded = try #require(observed.logs.entries.first { $0.level == .warning })
        #expect(notDecoded.metadata["forge.key"] == "count")
        #expect(notDecoded.metadata["forge.type"] == "Int")
        let migrated = try #require(observed.logs.entries.first { $0.level == .debug })
        #expect(migrated.metadata["forge.key"] == "new")
        #expect(migrated.metadata["forge.stored_name"] == "old")
    }

    @Test func aSecretStoresRecordsRedactTheKeyAndHoldNoSecret() throws {
        let faults = StoreFaults()
        let observed = ObservedStores()
        let store = InMemoryCrypt(faults: faults).reportingEvents(label: "tokens", to: observed.observability.record)
        let token = CryptKey<String>(key: "token.of-alice")
        try store.set("correct-horse", for: token)
        faults.failNext(.read, with: .permissionDenied)

        #expect(throws: CryptStoreError.self) { try store.get(token) }
        _ = try store.keys()

        let entries = observed.logs.entries
        #expect(entries.map(\.metadata["forge.key"]) == ["[redacted]", "[redacted]", nil])
        #expect(entries[1].level == .error && entries[1].error == nil)
        #expect(entries[1].metadata["forge.reason"] == "permissionDenied")
        #expect(!observed.everything.contains("alice") && !observed.everything.contains("horse"))
    }

    @Test func theLevelsAreTheCallersToChoose() throws {
        let observed = ObservedStores()
        var logger = Logger(label: "storage") { [logs = observed.logs] _ in logs }
        logger.logLevel = .info
        let quiet = StoreObservability(logger: logger, metricsFactory: nil, tracer: nil)
        let loud = StoreObservability(
            logger: logger,
            levels: StoreLogLevels(success: .info),
            metricsFactory: nil,
            tracer: nil
        )

        try InMemoryKVStore().reportingEvents(to: quiet.record).set(Self.count, value: 1)
        try InMemoryKVStore().reportingEvents(to: loud.record).set(Self.count, value: 1)

        #expect(observed.logs.entries.map(\.level) == [.info])
    }
}
