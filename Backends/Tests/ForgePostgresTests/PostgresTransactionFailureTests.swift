import ForgeKVStore
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

/// A write that fails in a transaction fails it with the error its store throws for that write alone, and the
/// transaction applies nothing: a write or removal the server refuses, a store whose table cannot be prepared, a
/// connection the server ends mid-way.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresTransactionFailureTests {
    /// The table of the refusal test, whose trigger refuses to store `poison` and to remove `pinned`.
    static let refusingTable = "forge_kv_refusing_test"

    @Test func aWriteOrRemovalTheServerRefusesFailsAsItWouldAlone() async throws {
        try await TestServer.withStores(tableName: Self.refusingTable) { (stores) async throws in
            let store = stores[0]
            let (kept, poison, pinned) = (KVKey<Int>("kept"), KVKey<Int>("poison"), KVKey<Int>("pinned"))
            try await store.set(kept, value: 1)
            try await store.set(pinned, value: 1)
            try await TestServer.withClient { admin in try await Self.refuse(on: admin) }

            let writeAlone = await #expect(throws: KVStoreError.self) { try await store.set(poison, value: 2) }
            await #expect(throws: try #require(writeAlone)) {
                try await StorageTransaction.run { transaction in
                    try transaction.set(kept, value: 2, in: store)
                    try transaction.set(poison, value: 2, in: store)
                    try transaction.remove(kept, in: store)
                }
            }
            let removalAlone = await #expect(throws: KVStoreError.self) { try await store.remove(pinned) }
            await #expect(throws: try #require(removalAlone)) {
                try await StorageTransaction.run { transaction in
                    try transaction.remove(kept, in: store)
                    try transaction.remove(pinned, in: store)
                }
            }
            #expect(try await store.keys().sorted() == ["kept", "pinned"])
            #expect(try await store.get(kept) == 1)
            // Gone, so that the namespace's values can be removed.
            try await TestServer.withClient { admin in try await Self.dropRefusal(on: admin) }
        }
    }

    @Test func aStoreWhoseTableCannotBePreparedFailsTheTransactionAsItsWriteAlone() async throws {
        try await TestServer.withStores { (stores) async throws in
            let store = stores[0]
            let unusable = PostgresKVStore(client: store.client, namespace: store.namespace, tableName: "Not A Name")
            let key = KVKey<Int>("count")
            let alone = await #expect(throws: KVStoreError.self) { try await unusable.set(key, value: 1) }
            await #expect(throws: try #require(alone)) {
                try await StorageTransaction.run { transaction in
                    try transaction.set(key, value: 1, in: store)
                    try transaction.set(key, value: 1, in: unusable)
                }
            }
            #expect(try await store.keys() == [])
        }
    }

    @Test func aTransactionWhoseConnectionIsKilledMidwayFailsAndAppliesNothing() async throws {
        try await TestServer.withStores { (stores) async throws in
            let store = stores[0]
            let keys = ["a", "b", "c"].map { KVKey<String>($0) }
            try await store.set(keys[1], value: "old")

            try await TestServer.withClient { admin in
                // Another transaction locks the row of "b", so the transaction waits there, "a" written.
                let lock: PostgresQuery = """
                    SELECT key FROM forge_kv WHERE namespace = \(store.namespace) AND key = 'b' FOR UPDATE
                    """
                let transaction = try await TestServer.whileLocked(by: lock, admin: admin) { holder in
                    let transaction = Task {
                        try await StorageTransaction.run { transaction in
                            for key in keys { try transaction.set(key, value: "new", in: store) }
                        }
                    }
                    let waiting = try await TestServer.backendWaiting(on: holder, admin: admin)
                    try await TestServer.terminateBackend(waiting, admin: admin)
                    return transaction
                }
                let error = await #expect(throws: KVStoreError.self) { try await transaction.value }
                guard case .writeFailed(let key, _) = error else {
                    Issue.record("\(String(describing: error)) is not the write's error")
                    return
                }
                #expect(key == "b", "the error names the write the transaction stopped at")
            }

            #expect(try await store.keys() == ["b"])
            #expect(try await store.get(keys[1]) == "old")
            try await StorageTransaction.run { transaction in
                for key in keys { try transaction.set(key, value: "newer", in: store) }
            }
            for key in keys { #expect(try await store.get(key) == "newer") }
        }
    }

    /// Adds a trigger to ``refusingTable`` that refuses to store the key `poison` and to remove the key `pinned`.
    private static func refuse(on admin: PostgresClient) async throws {
        let table = refusingTable
        _ = try await admin.query(
            PostgresQuery(
                unsafeSQL: """
                    CREATE OR REPLACE FUNCTION "\(table)_refuse"() RETURNS trigger LANGUAGE plpgsql AS $refuse$
                    BEGIN
                        IF TG_OP = 'DELETE' THEN
                            IF OLD.key = 'pinned' THEN RAISE EXCEPTION 'pinned may not be removed'; END IF;
                            RETURN OLD;
                        END IF;
                        IF NEW.key = 'poison' THEN RAISE EXCEPTION 'poison may not be stored'; END IF;
                        RETURN NEW;
                    END
                    $refuse$
                    """
            )
        )
        try await dropRefusal(on: admin)
        _ = try await admin.query(
            PostgresQuery(
                unsafeSQL: """
                    CREATE TRIGGER "\(table)_refuse" BEFORE INSERT OR UPDATE OR DELETE ON "\(table)"
                        FOR EACH ROW EXECUTE FUNCTION "\(table)_refuse"()
                    """
            )
        )
    }

    /// Removes the trigger ``refuse(on:)`` adds.
    private static func dropRefusal(on admin: PostgresClient) async throws {
        let drop = "DROP TRIGGER IF EXISTS \"\(refusingTable)_refuse\" ON \"\(refusingTable)\""
        _ = try await admin.query(PostgresQuery(unsafeSQL: drop))
    }
}
