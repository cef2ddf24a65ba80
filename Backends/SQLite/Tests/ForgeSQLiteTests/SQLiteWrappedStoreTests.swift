@testable import ForgeSQLite
import ForgeStorageTesting
import Foundation
import Testing

/// A SQLite store wrapped for events (so that a server logs it) keeps what the store has: a service or a reaper that
/// takes an `AsyncExpiringKVStoring` takes it (`SQLiteKVStoreExpiryTests` runs the expiry suite on it), and a
/// transaction's writes through it are reported.
struct SQLiteWrappedStoreTests {
    /// What a server's service is written against.
    private struct SessionService {
        let store: any AsyncExpiringKVStoring

        func open(_ token: String) async throws {
            try await store.set(KVKey<String>("session"), value: token, expiresAfter: .seconds(60))
        }
    }

    @Test func aServiceAndAReaperTakeALoggedStore() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let events = Locked<[StoreEvent]>([])
            let store = SQLiteKVStore(
                fileURL: databaseFile(in: folder),
                namespace: "sessions",
                expiry: KVExpiry(clock: clock)
            )
            .reportingEvents(label: "sessions") { event in events.withLock { $0.append(event) } }
            let service = SessionService(store: store)
            try await service.open("abc")
            #expect(try await service.store.expirationDate(of: KVKey<String>("session")) != nil)
            _ = ExpiryReaper(store: service.store, interval: .seconds(1))
            clock.advance(by: .seconds(61))
            #expect(try await service.store.reclaimExpiredValues(limit: 10) == 1)
            let reclaimed = events.withLock { $0 }
                .contains { event in
                    if case .expiredValuesReclaimed(1) = event.kind { true } else { false }
                }
            #expect(reclaimed)
        }
    }

    @Test func aTransactionThroughLoggedStoresIsReported() async throws {
        try await withTemporaryFolder { folder in
            let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
            let events = Locked<[StoreEvent]>([])
            let settings = SQLiteKVStore(database: database, namespace: "settings")
                .reportingEvents(label: "settings") { event in events.withLock { $0.append(event) } }
            let files = SQLiteFileStore(database: database, namespace: "files")
                .reportingEvents(label: "files") { event in events.withLock { $0.append(event) } }
            try await StorageTransaction.run { transaction in
                try transaction.set(KVKey<Int>("count"), value: 1, in: settings)
                try transaction.save(Data("{}".utf8), to: "upload.json", in: files)
            }
            let writes = events.withLock { $0 }
            #expect(writes.map(\.label) == ["settings", "files"])
            #expect(writes.map(\.target) == ["count", "upload.json"])
            #expect(writes.map(\.operation) == [.write, .write])
            #expect(settings.get(KVKey<Int>("count")) == 1)
        }
    }
}
