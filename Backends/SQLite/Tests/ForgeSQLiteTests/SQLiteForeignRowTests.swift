import ForgeFileStore
import ForgeSQLite
import Foundation
import GRDB
import Testing

/// Rows another program wrote, with types this code never writes: a read answers a value or a typed error naming the
/// key or path, never a trap (the fuzzer's `sqlite-row` target found a blob value that trapped), and the next write
/// repairs the row.
struct SQLiteForeignRowTests {
    /// Runs `body` with a store whose `theme` row another connection then set to `value` and `expiresAt`.
    private func withPlantedRow(
        value: any DatabaseValueConvertible,
        expiresAt: (any DatabaseValueConvertible)?,
        _ body: (SQLiteKVStore) throws -> Void
    ) async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let store = SQLiteKVStore(fileURL: file, namespace: "settings")
            try store.set(KVKey<String>("theme"), value: "light")
            try DatabaseQueue(path: file.path)
                .write { db in
                    try db.execute(
                        sql: "UPDATE forge_kv SET value = ?, expires_at = ? WHERE namespace = ? AND name = ?",
                        arguments: [value, expiresAt, Data("settings".utf8), Data("theme".utf8)]
                    )
                }
            try body(store)
        }
    }

    @Test func aBlobThatIsNotUTF8IsATypedDecodingErrorAndTheNextSetRepairsIt() async throws {
        try await withPlantedRow(value: Data([0x22, 0xFF, 0xFE, 0x22]), expiresAt: nil) { store in
            let failure = #expect(throws: KVStoreError.self) { try store.value(for: KVKey<String>("theme")) }
            #expect(failure?.key == "theme")
            try store.set(KVKey<String>("theme"), value: "dark")
            #expect(try store.value(for: KVKey<String>("theme")) == "dark")
        }
    }

    @Test func aNumberStoredAsAnIntegerReadsAsTheNumberItsDigitsSpell() async throws {
        try await withPlantedRow(value: 42, expiresAt: nil) { (store: SQLiteKVStore) throws in
            #expect(try store.value(for: KVKey<Int>("theme")) == 42)
        }
    }

    @Test func aLifetimeThatIsNoIntegerIsATypedErrorNamingTheKey() async throws {
        try await withPlantedRow(value: "\"dark\"", expiresAt: "soon") { store in
            let failure = #expect(throws: KVStoreError.self) { try store.value(for: KVKey<String>("theme")) }
            #expect(failure?.key == "theme")
        }
    }

    @Test func aFileWhoseSizeIsNoIntegerIsATypedErrorNamingThePath() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let store = SQLiteFileStore(fileURL: file, namespace: "documents")
            try await store.save(Data("a note".utf8), to: "note.txt")
            try await DatabaseQueue(path: file.path)
                .write { db in try db.execute(sql: "UPDATE forge_files SET size = 'large'") }
            let failure = await #expect(throws: FileStoreError.self) { try await store.load("note.txt") }
            #expect(failure?.path == "note.txt")
        }
    }
}
