import ForgeSQLite
import Foundation
import Testing

/// The namespace's header row checks the master key: another key fails every call with a typed error and writes
/// nothing; the right key opens the secrets again.
struct SQLiteCryptMasterKeyTests {
    @Test func aWrongMasterKeyFailsEveryCallWithATypedError() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let token = CryptKey<String>(key: "auth.token")
            try SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: testMasterKey(1)).set("s3cr3t", for: token)

            let wrong = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: testMasterKey(2))
            let expected = CryptStoreError.wrongMasterKey(
                path: "SQLite database '\(file.path)', namespace 'secrets'",
                createdWith: .symmetric
            )
            #expect(throws: expected) { try wrong.prepare() }
            #expect(throws: expected) { try wrong.get(token) }
            #expect(throws: expected) { try wrong.set("other", for: token) }
            #expect(throws: expected) { try wrong.delete(token) }
            #expect(throws: expected) { try wrong.keys() }
            #expect(throws: expected) { try wrong.deleteAll() }
            #expect(throws: expected) { try wrong.itemCount() }

            let right = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: testMasterKey(1))
            #expect(try right.get(token) == "s3cr3t")
            #expect(try right.itemCount() == 1)
        }
    }

    @Test func aPassphraseOpensWhatItSealed() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let token = CryptKey<String>(key: "auth.token")
            try SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: .passphrase("correct horse"))
                .set("s3cr3t", for: token)

            let store = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: .passphrase("correct horse"))
            #expect(try store.get(token) == "s3cr3t")
            let wrong = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: .passphrase("battery staple"))
            #expect(throws: CryptStoreError.self) { try wrong.get(token) }
        }
    }
}
