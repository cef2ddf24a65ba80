import ForgeSQLite
import Foundation
import GRDB
import Testing

/// Neither a secret nor its key name is in the database file in the clear: not in the main file, not in its
/// write-ahead log.
struct SQLiteCryptAtRestTests {
    @Test func neitherTheSecretNorTheKeyNameIsInTheFile() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let secret = "correct-horse-battery-staple-0123456789"
            let keyName = "payments.stripe.api-key"
            let store = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: testMasterKey())
            try store.set(secret, for: CryptKey<String>(key: keyName))
            #expect(try store.keys() == [keyName])

            // What a reader of the files sees, before and after the log is copied into the database.
            try expectAbsent([secret, keyName], inFilesOf: file)
            let other = try DatabaseQueue(path: file.path)
            try other.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            try expectAbsent([secret, keyName], inFilesOf: file)
            #expect(try other.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM forge_secrets") } == 2)
        }
    }

    /// Checks that no file of the database (itself, its log) holds any of `texts` as UTF-8.
    private func expectAbsent(_ texts: [String], inFilesOf file: URL) throws {
        for suffix in ["", "-wal"] {
            let path = file.path + suffix
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(!bytes.isEmpty || suffix == "-wal")
            for text in texts {
                #expect(bytes.range(of: Data(text.utf8)) == nil, "'\(text)' is in \(path)")
            }
        }
    }
}
