import ForgeKVStore
import ForgePostgres
import ForgeStorageTesting
import Foundation
import PostgresNIO
import Testing

/// `PostgresKVStore` keeps lifetimes as every store does: the expiry suite, with a second store on the namespace and
/// the store's own streams, alone and seen through the seam; the same random writes, removes, clock moves and reclaims as on the twin give the same
/// answers; a table an older version made is upgraded; a transaction's write drops a lifetime.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresKVStoreExpiryTests {
    @Test(arguments: ExpiryConformance.checks)
    func expiresLikeEveryStore(_ check: ExpiryConformance.Check) async throws {
        try await expiresLikeEveryStore(check, seam: .alone)
    }

    /// Serialized, so that the wrapped stores' clients add to the server's connections no more than one check's.
    @Test(.serialized, arguments: ExpiryConformance.checks, [Seam.events, .faults])
    func expiresLikeEveryStoreThroughTheSeam(_ check: ExpiryConformance.Check, seam: Seam) async throws {
        try await expiresLikeEveryStore(check, seam: seam)
    }

    /// Runs `check` on the store as `seam` shows it.
    private func expiresLikeEveryStore(_ check: ExpiryConformance.Check, seam: Seam) async throws {
        let clock = ManualExpiryClock()
        try await TestServer.withStores(2) { (stores) async throws in
            // Each instance its own settings on the same clock, as two servers would have.
            let (store, other) = (stores[0].expiring(by: clock), stores[1].expiring(by: clock))
            try await check.run(
                on: .init(store: seam.settings(store), clock: clock, otherInstance: other, stream: { store.stream($0) })
            )
        }
    }

    @Test func aTableMadeBeforeLifetimesIsUpgradedAndItsRowsRead() async throws {
        let table = "forge_kv_upgrade_\(UUID().uuidString.prefix(8).lowercased())"
        try await TestServer.withClient { (client) async throws in
            _ = try await client.query(PostgresQuery(unsafeSQL: Self.previousCreateStatement(table)))
            _ = try await client.query(
                PostgresQuery(
                    unsafeSQL: "INSERT INTO \(table) (namespace, key, value) VALUES ('old', 'greeting', '\"hello\"')"
                )
            )
            let clock = ManualExpiryClock()
            let store = PostgresKVStore(client: client, namespace: "old", tableName: table)
                .expiring(by: clock)
            let greeting = KVKey<String>("greeting")
            let token = KVKey<String>("token")
            #expect(try await store.get(greeting) == "hello", "a row written before lifetimes reads back")
            #expect(try await store.expirationDate(of: greeting) == nil, "and never expires")
            #expect(try await Self.expiryIndexExists(of: table, client: client))

            try await store.set(token, value: "t0k3n", expiresAfter: .seconds(1))
            #expect(try await store.keys() == ["greeting", "token"])
            var tokens = store.stream(token).makeAsyncIterator()
            #expect(try await nextValue(&tokens) == "t0k3n")
            clock.advance(by: .seconds(1))
            #expect(try await nextValue(&tokens) == nil)
            #expect(try await store.keys() == ["greeting"])
            #expect(try await store.reclaimExpiredValues(limit: 10) == 1)
            #expect(try await store.get(greeting) == "hello")

            _ = try await client.query(PostgresQuery(unsafeSQL: "DROP TABLE \(table)"))
            let functions = ["\"\(table)_row_hash\"(text, text)", "\"\(table)_hash\"()", "\"\(table)_notify\"()"]
            _ = try await client.query(PostgresQuery(unsafeSQL: "DROP FUNCTION \(functions.joined(separator: ", "))"))
        }
    }

    @Test func aNamespaceOfAnyLengthKeepsLifetimes() async throws {
        try await TestServer.withClient { (client) async throws in
            // Thousands of characters that do not compress: too long for a B-tree entry of the namespace itself.
            let namespace = (0..<120).map { _ in UUID().uuidString }.joined()
            let clock = ManualExpiryClock()
            let store = PostgresKVStore(client: client, namespace: namespace, expiry: KVExpiry(clock: clock))
            let token = KVKey<String>("token")
            try await store.set(token, value: "t0k3n", expiresAfter: .seconds(1))
            #expect(try await store.get(token) == "t0k3n")
            clock.advance(by: .seconds(1))
            #expect(try await store.keys().isEmpty)
            #expect(try await store.reclaimExpiredValues(limit: 10) == 1)
            try await store.removeAll()
        }
    }

    @Test func aTransactionsWriteStoresAValueThatNeverExpires() async throws {
        let clock = ManualExpiryClock()
        try await TestServer.withStores { (stores) async throws in
            let store = stores[0].expiring(by: clock)
            let token = KVKey<String>("token")
            try await store.set(token, value: "short", expiresAfter: .seconds(10))
            try await StorageTransaction.run { transaction in
                try transaction.set(token, value: "written in a transaction", in: store)
            }
            #expect(try await store.expirationDate(of: token) == nil)
            clock.advance(by: .seconds(10))
            #expect(try await store.get(token) == "written in a transaction")
            #expect(try await store.reclaimExpiredValues(limit: 10) == 0)
        }
    }

    @Test func aStreamOfAMigratingKeyReadsAgainWhenTheOlderValueExpires() async throws {
        let clock = ManualExpiryClock()
        try await TestServer.withStores { (stores) async throws in
            let store = stores[0].expiring(by: clock)
            let renamed = KVKey<String>("appearance", migrations: .renamed(from: "theme"))
            try await store.set(KVKey<String>("theme"), value: "dark", expiresAfter: .seconds(5))
            var values = store.stream(renamed).makeAsyncIterator()
            #expect(try await nextValue(&values) == "dark")
            clock.advance(by: .seconds(5))
            #expect(try await nextValue(&values) == nil, "the older name's value expired, and nothing replaces it")
        }
    }

    /// Whether the partial index of `table`'s expiration dates exists.
    static func expiryIndexExists(of table: String, client: PostgresClient) async throws -> Bool {
        let query: PostgresQuery = "SELECT to_regclass(\("\"\(table)_expiry\"")) IS NOT NULL"
        for try await exists in try await client.query(query).decode(Bool.self) { return exists }
        return false
    }

    /// The statement that made a store's table before lifetimes were kept, as that version sent it.
    static func previousCreateStatement(_ name: String) -> String {
        """
        DO $forge$
        BEGIN
            PERFORM pg_advisory_xact_lock(hashtext('forge_kv_table:\(name)'));
            CREATE TABLE IF NOT EXISTS "\(name)" (
                row_hash bytea PRIMARY KEY,
                namespace text NOT NULL,
                key text NOT NULL,
                value json NOT NULL,
                version bigint NOT NULL DEFAULT 1
            );
            CREATE INDEX IF NOT EXISTS "\(name)_namespace" ON "\(name)" USING hash (namespace);
            CREATE OR REPLACE FUNCTION "\(name)_row_hash"(namespace text, key text) RETURNS bytea
                LANGUAGE sql STABLE AS $rowhash$
                SELECT sha256(convert_to(namespace, 'UTF8') || '\\x00'::bytea || convert_to(key, 'UTF8'))
                $rowhash$;
            CREATE OR REPLACE FUNCTION "\(name)_hash"() RETURNS trigger LANGUAGE plpgsql AS $hash$
            BEGIN
                NEW.row_hash := "\(name)_row_hash"(NEW.namespace, NEW.key);
                RETURN NEW;
            END
            $hash$;
            IF NOT EXISTS (
                SELECT 1 FROM pg_trigger
                WHERE tgname = '\(name)_hash' AND tgrelid = '"\(name)"'::regclass
            ) THEN
                CREATE TRIGGER "\(name)_hash" BEFORE INSERT OR UPDATE ON "\(name)"
                    FOR EACH ROW EXECUTE FUNCTION "\(name)_hash"();
            END IF;
            CREATE OR REPLACE FUNCTION "\(name)_notify"() RETURNS trigger LANGUAGE plpgsql AS $notify$
            DECLARE
                changed record;
            BEGIN
                IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
                PERFORM pg_notify(
                    '\(name)', left(changed.namespace, 900) || E'\\n' || left(changed.key, 900));
                RETURN NULL;
            END
            $notify$;
            IF NOT EXISTS (
                SELECT 1 FROM pg_trigger
                WHERE tgname = '\(name)_notify' AND tgrelid = '"\(name)"'::regclass
            ) THEN
                CREATE TRIGGER "\(name)_notify" AFTER INSERT OR UPDATE OR DELETE ON "\(name)"
                    FOR EACH ROW EXECUTE FUNCTION "\(name)_notify"();
            END IF;
        END
        $forge$
        """
    }
}

extension PostgresKVStore {
    /// The same namespace of the same table, on the same client, with values expiring by `clock`.
    func expiring(by clock: ManualExpiryClock) -> PostgresKVStore {
        PostgresKVStore(client: client, namespace: namespace, tableName: tableName, expiry: KVExpiry(clock: clock))
    }
}
