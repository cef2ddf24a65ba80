@testable import ForgeSQLite
import ForgeStorageTesting
import Foundation
import GRDB
import Testing

/// SQLiteKVStore keeps lifetimes as the twin does: the expiry suite, with a second instance on the same database (the
/// store alone, and wrapped for events in the asynchronous form) and on a second connection to the file; a random
/// sequence of writes, clock moves and reclaims answered as the twin answers it; reclaims told to observers;
/// transactions, whose values have no lifetime.
struct SQLiteKVStoreExpiryTests {
    @Test(arguments: ExpiryConformance.checks, [false, true])
    func expiresLikeEveryStoreWithAnotherStoreOfTheDatabase(_ check: ExpiryConformance.Check, logged: Bool)
        async throws
    {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
            let store = SQLiteKVStore(database: database, namespace: "store", expiry: KVExpiry(clock: clock))
            let other = SQLiteKVStore(database: database, namespace: "store", expiry: KVExpiry(clock: clock))
            // Logged, the store is seen as a server's service sees it: an `AsyncExpiringKVStoring` wrapped for events.
            try await check.run(
                on: logged
                    ? .init(
                        store: store.reportingEvents { _ in },
                        clock: clock,
                        otherInstance: other,
                        stream: { store.stream($0) }
                    )
                    : .init(synchronous: store, clock: clock, otherInstance: other, stream: { store.stream($0) })
            )
        }
    }

    @Test(arguments: ExpiryConformance.checks)
    func expiresLikeEveryStoreWithAnotherConnectionToTheFile(_ check: ExpiryConformance.Check) async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let file = databaseFile(in: folder)
            let store = SQLiteKVStore(fileURL: file, namespace: "store", expiry: KVExpiry(clock: clock))
            let other = SQLiteKVStore(fileURL: file, namespace: "store", expiry: KVExpiry(clock: clock))
            let reactive = ReactiveKVStore(store)
            try await check.run(
                on: .init(synchronous: store, clock: clock, otherInstance: other, stream: { reactive.stream($0) })
            )
        }
    }

    @Test func aReclaimIsToldToTheObserversOfTheNamespace() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
            let store = SQLiteKVStore(database: database, namespace: "store", expiry: KVExpiry(clock: clock))
            let neighbour = SQLiteKVStore(database: database, namespace: "neighbour", expiry: KVExpiry(clock: clock))
            try store.set(KVKey<String>("token"), value: "t0k3n", expiresAfter: .seconds(10))
            try neighbour.set(KVKey<String>("token"), value: "other", expiresAfter: .seconds(10))
            let told = Locked<[String?]>([])
            let observation = store.observeChanges { key in told.withLock { $0.append(key) } }
            clock.advance(by: .seconds(10))

            #expect(try store.reclaimExpiredValues(limit: 10) == 1)
            #expect(told.withLock { $0 } == ["token"])
            #expect(try neighbour.reclaimExpiredValues(limit: 10) == 1, "another namespace's rows are its own")
            #expect(told.withLock { $0 } == ["token"])
            observation.end()
        }
    }

    @Test func aTransactionsValueHasNoLifetime() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = SQLiteKVStore(
                fileURL: databaseFile(in: folder),
                namespace: "store",
                expiry: KVExpiry(clock: clock)
            )
            let key = KVKey<String>("token")
            try store.set(key, value: "short", expiresAfter: .seconds(10))
            try StorageTransaction.run { transaction in try transaction.set(key, value: "kept", in: store) }
            #expect(try store.expirationDate(of: key) == nil)
            clock.advance(by: .seconds(10))
            #expect(store.get(key) == "kept", "as set(_:value:), a transaction's write drops the lifetime it replaces")
            #expect(try store.reclaimExpiredValues(limit: 10) == 0)
        }
    }

    @Test func aNamespaceWithoutLifetimesIsListedBesideOneWithThem() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
            let plain = SQLiteKVStore(database: database, namespace: "plain", expiry: KVExpiry(clock: clock))
            let expiring = SQLiteKVStore(database: database, namespace: "expiring", expiry: KVExpiry(clock: clock))
            for name in ["b", "a", "é"] { try plain.set(KVKey<Int>(name), value: 1) }
            try expiring.set(KVKey<Int>("kept"), value: 1)
            try expiring.set(KVKey<Int>("gone"), value: 1, expiresAfter: .seconds(1))
            clock.advance(by: .seconds(1))

            #expect(try plain.keys() == ["a", "b", "é"], "listed without the expiry check, in order")
            #expect(try expiring.keys() == ["kept"], "listed with it")
            try plain.set(KVKey<Int>("c"), value: 1, expiresAfter: .seconds(1))
            #expect(try plain.keys() == ["a", "b", "c", "é"])
            clock.advance(by: .seconds(1))
            #expect(try plain.keys() == ["a", "b", "é"])
        }
    }

    @Test func rowsKeepTheirExpirationInWholeMilliseconds() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let file = databaseFile(in: folder)
            let store = SQLiteKVStore(fileURL: file, namespace: "store", expiry: KVExpiry(clock: clock))
            try store.set(KVKey<Int>("short"), value: 1, expiresAfter: .milliseconds(1500))
            try store.set(KVKey<Int>("plain"), value: 2)
            let rows = try DatabaseQueue(path: file.path)
                .read { db in
                    try Row.fetchAll(
                        db,
                        sql: "SELECT CAST(name AS TEXT) AS name, expires_at FROM forge_kv ORDER BY name"
                    )
                    .map { ($0["name"] as String, $0["expires_at"] as Int64?) }
                }
            let start = Int64(clock.now.timeIntervalSince1970 * 1000)
            #expect(rows.map(\.0) == ["plain", "short"])
            #expect(rows.map(\.1) == [nil, start + 1500])
        }
    }
}
