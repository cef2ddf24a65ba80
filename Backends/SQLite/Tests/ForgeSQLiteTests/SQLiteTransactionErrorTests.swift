import ForgeSQLite
import Foundation
import GRDB
import Testing

/// A transaction on the SQLite stores fails with the error its failing write throws alone, and applies nothing: a
/// secret store whose namespace another vault took over, checked inside the transaction; a secret store that cannot
/// be prepared, before the transaction begins.
struct SQLiteTransactionErrorTests {
    static let token = CryptKey<String>(key: "token")

    @Test func aSecretStoreWhoseHeaderWasReplacedFailsTheTransaction() async throws {
        try await withStoresOfOneDatabase { stores in
            let file = stores.database.fileURL
            try stores.secrets.prepare()
            let other = try DatabaseQueue(path: file.path)
            try await other.write { db in try db.execute(sql: "DELETE FROM forge_secrets") }
            let taker = SQLiteCrypt(fileURL: file, namespace: "auth", masterKey: testMasterKey())
            try taker.set("taker's", for: Self.token)

            let replaced = CryptStoreError.vaultReplaced(path: "SQLite database '\(file.path)', namespace 'auth'")
            await #expect(throws: replaced) {
                try await StorageTransaction.run { transaction in
                    try transaction.set(KVKey<Int>("count"), value: 1, in: stores.settings)
                    try transaction.set("mine", for: Self.token, in: stores.secrets)
                }
            }
            #expect(try stores.settings.keys().isEmpty)
            #expect(try taker.get(Self.token) == "taker's")
        }
    }

    @Test func aSecretStoreWithAWrongMasterKeyFailsTheTransactionBeforeItBegins() async throws {
        try await withStoresOfOneDatabase { stores in
            try stores.secrets.set("s3cr3t", for: Self.token)
            let wrong = SQLiteCrypt(database: stores.database, namespace: "auth", masterKey: testMasterKey())

            let failure = await #expect(throws: CryptStoreError.self) {
                try await StorageTransaction.run { transaction in
                    try transaction.set(KVKey<Int>("count"), value: 1, in: stores.settings)
                    try transaction.set("other", for: Self.token, in: wrong)
                }
            }
            let alone = #expect(throws: CryptStoreError.self) { try wrong.set("other", for: Self.token) }
            #expect(failure != nil && failure == alone, "the error of the same write alone")
            #expect(try stores.settings.keys().isEmpty)
            #expect(try stores.secrets.get(Self.token) == "s3cr3t")
        }
    }
}
