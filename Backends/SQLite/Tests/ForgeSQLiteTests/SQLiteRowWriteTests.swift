import ForgeSQLite
import Foundation
import GRDB
import Testing

/// The key-value rows, which the stores bind and step through SQLite's C interface: the bytes land as GRDB would bind
/// them, an empty name is an empty blob and not NULL, and a row SQLite refuses (here through a trigger another program
/// planted) fails that write alone with the store's error naming its key, alone or in a transaction, and leaves the
/// statement fit for the next write.
struct SQLiteRowWriteTests {
    /// What the row of `name` in `namespace` holds, read by another connection: the types and sizes SQLite keeps.
    struct StoredRow: Equatable {
        let nameType: String
        let nameLength: Int
        let valueType: String
        let value: String
        let expiresAt: Int64?
    }

    /// The row of `name` in `namespace` of the file at `path`, or nil.
    static func row(named name: String, in namespace: String, at path: String) throws -> StoredRow? {
        let other = try DatabaseQueue(path: path)
        return try other.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT typeof(name) AS nameType, length(name) AS nameLength, typeof(value) AS valueType, value,
                        expires_at FROM forge_kv WHERE namespace = ? AND name = ?
                    """,
                arguments: [Data(namespace.utf8), Data(name.utf8)]
            )
            .map { row in
                StoredRow(
                    nameType: row["nameType"],
                    nameLength: row["nameLength"],
                    valueType: row["valueType"],
                    value: row["value"],
                    expiresAt: row["expires_at"]
                )
            }
        }
    }

    /// Runs `body` with a store on a new database file whose key `seeded` holds `value`, once another program planted
    /// a trigger there that refuses `statement` (`INSERT` or `DELETE`) of the row named `name`: with `ABORT`, SQLite
    /// undoes that statement; with `ROLLBACK`, the whole transaction it is part of.
    static func withStore(
        seeding seeded: String,
        with value: Int,
        refusing statement: String,
        of name: String,
        undoing resolution: String = "ABORT",
        _ body: (SQLiteKVStore) async throws -> Void
    ) async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let store = SQLiteKVStore(fileURL: file, namespace: "settings")
            try store.set(KVKey<Int>(seeded), value: value)
            let row = statement == "DELETE" ? "OLD" : "NEW"
            let hex = Data(name.utf8).map { String(format: "%02x", $0) }.joined()
            try await DatabaseQueue(path: file.path)
                .write { db in
                    try db.execute(
                        sql: """
                            CREATE TRIGGER refuse_\(statement.lowercased()) BEFORE \(statement) ON forge_kv
                            WHEN \(row).name = X'\(hex)' BEGIN SELECT RAISE(\(resolution), 'refused by a trigger'); END
                            """
                    )
                }
            try await body(store)
        }
    }

    @Test func anEmptyNameInAnEmptyNamespaceIsAnEmptyBlobAndIsRemoved() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let store = SQLiteKVStore(fileURL: file, namespace: "")
            try store.set(KVKey<Int>(""), value: 7)

            #expect(try store.value(for: KVKey<Int>("")) == 7)
            let stored = try Self.row(named: "", in: "", at: file.path)
            #expect(stored == StoredRow(nameType: "blob", nameLength: 0, valueType: "text", value: "7", expiresAt: nil))
            try store.remove(KVKey<Int>(""))
            #expect(try Self.row(named: "", in: "", at: file.path) == nil)
            #expect(try store.keys().isEmpty)
        }
    }

    @Test func aValueWithALifetimeKeepsItsDateAndAValueWithoutNone() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let store = SQLiteKVStore(fileURL: file, namespace: "réglages")
            let date = Date(timeIntervalSince1970: 4_000_000_000.25)
            try store.set(KVKey<String>("clé"), value: "é", lifetime: .until(date))
            try store.set(KVKey<String>("plain"), value: "x")

            let expiring = try Self.row(named: "clé", in: "réglages", at: file.path)
            #expect(expiring?.expiresAt == 4_000_000_000_250)
            #expect(expiring?.value == "\"é\"")
            #expect(try Self.row(named: "plain", in: "réglages", at: file.path)?.expiresAt == nil)
            try store.set(KVKey<String>("clé"), value: "again")
            #expect(try Self.row(named: "clé", in: "réglages", at: file.path)?.expiresAt == nil)
        }
    }

    /// A value's JSON is kept as valid UTF-8 text: bytes that are not UTF-8 (JSON read from elsewhere) become U+FFFD, as
    /// a `String` repairs them, so that SQLite keeps text it can read back.
    @Test func textThatIsNotASCIIIsKeptAsValidUTF8() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let store = SQLiteKVStore(fileURL: file, namespace: "settings")
            try store.store(KVStoredValue(json: Data("\"ascii\"".utf8)), named: "ascii")
            try store.store(KVStoredValue(json: Data("\"日本\"".utf8)), named: "utf8")
            try store.store(KVStoredValue(json: Data([0x22, 0xFF, 0x22])), named: "broken")

            #expect(try Self.row(named: "ascii", in: "settings", at: file.path)?.value == "\"ascii\"")
            #expect(try Self.row(named: "utf8", in: "settings", at: file.path)?.value == "\"日本\"")
            let broken = try Self.row(named: "broken", in: "settings", at: file.path)
            #expect(broken?.valueType == "text")
            let bytes = try DatabaseQueue(path: file.path)
                .read { db in
                    try String.fetchOne(db, sql: "SELECT hex(value) FROM forge_kv WHERE name = CAST('broken' AS BLOB)")
                }
            #expect(bytes == "22EFBFBD22", "the byte that is not UTF-8 kept as U+FFFD, in UTF-8")
            #expect(try store.value(for: KVKey<String>("utf8")) == "日本")
        }
    }

    @Test func aRowSQLiteRefusesFailsThatSetAloneAndTheNextWriteWorks() async throws {
        try await Self.withStore(seeding: "blocked", with: 1, refusing: "INSERT", of: "blocked") { store in
            let failure = #expect(throws: KVStoreError.self) { try store.set(KVKey<Int>("blocked"), value: 2) }
            #expect(failure?.key == "blocked")
            guard case .writeFailed(_, .other(let description)) = failure else {
                Issue.record("expected writeFailed with SQLite's message, got \(String(describing: failure))")
                return
            }
            #expect(description.contains("refused by a trigger"))
            #expect(try store.value(for: KVKey<Int>("blocked")) == 1)
            try store.set(KVKey<Int>("other"), value: 3)
            #expect(try store.value(for: KVKey<Int>("other")) == 3)
        }
    }

    /// A trigger that undoes its statement (`ABORT`) or the whole transaction (`ROLLBACK`): either way the transaction
    /// fails with the error naming the refused key, the rows before it are undone, the rows after it are not committed by
    /// themselves, and the next transaction works.
    @Test(arguments: ["ABORT", "ROLLBACK"])
    func aRowSQLiteRefusesFailsTheTransactionWhichAppliesNothing(undoing resolution: String) async throws {
        try await Self.withStore(seeding: "a", with: 0, refusing: "INSERT", of: "blocked", undoing: resolution) {
            store in

            let failure = await #expect(throws: KVStoreError.self) {
                try await StorageTransaction.run { transaction in
                    try transaction.set(KVKey<Int>("a"), value: 1, in: store)
                    try transaction.set(KVKey<Int>("blocked"), value: 1, in: store)
                    try transaction.set(KVKey<Int>("c"), value: 1, in: store)
                }
            }
            #expect(failure?.key == "blocked")
            #expect(try store.keys() == ["a"])
            #expect(try store.value(for: KVKey<Int>("a")) == 0)

            try await StorageTransaction.run { transaction in
                try transaction.set(KVKey<Int>("a"), value: 2, in: store)
                try transaction.remove(KVKey<Int>("a"), in: store)
                try transaction.set(KVKey<Int>("c"), value: 2, in: store)
            }
            #expect(try store.keys() == ["c"])
        }
    }

    /// Writers on threads of their own whose writes are committed together: the one SQLite rolls back fails alone, with
    /// its store's error, and every other is committed.
    @Test func aRowThatRollsAGroupBackFailsAloneAndTheOthersCommit() async throws {
        try await Self.withStore(seeding: "seed", with: 0, refusing: "INSERT", of: "blocked", undoing: "ROLLBACK") {
            store in
            let names = (0..<16).map { $0 == 7 ? "blocked" : "w\($0)" }

            let outcomes = try await withThrowingTaskGroup(of: (String, KVStoreError?).self) { tasks in
                for name in names {
                    tasks.addTask {
                        try await onOwnThread {
                            do {
                                try store.set(KVKey<Int>(name), value: 1)
                                return (name, nil)
                            } catch let error as KVStoreError {
                                return (name, error)
                            }
                        }
                    }
                }
                return try await tasks.reduce(into: [String: KVStoreError?]()) { $0[$1.0] = $1.1 }
            }

            #expect(outcomes.filter { $0.value != nil }.map(\.key) == ["blocked"])
            #expect(outcomes["blocked"]??.key == "blocked")
            #expect(try store.keys() == (names.filter { $0 != "blocked" } + ["seed"]).sorted())
        }
    }

    @Test func aRemovalSQLiteRefusesFailsWithTheStoresErrorAndKeepsTheValue() async throws {
        try await Self.withStore(seeding: "kept", with: 1, refusing: "DELETE", of: "kept") {
            (store: SQLiteKVStore) async throws in
            let failure = #expect(throws: KVStoreError.self) { try store.remove(KVKey<Int>("kept")) }
            guard case .removeFailed(key: "kept", _) = failure else {
                Issue.record("expected removeFailed naming the key, got \(String(describing: failure))")
                return
            }
            #expect(try store.value(for: KVKey<Int>("kept")) == 1)
        }
    }
}
