import ForgeSQLite
import Foundation
import GRDB
import Testing

/// Key-value stores and secret stores on one file, of the same namespaces, stay apart; every namespace of secrets
/// has a header of its own.
struct SQLiteCryptSharedFileTests {
    @Test func keyValuesAndSecretsOnOneFileStayApart() async throws {
        try await withTemporaryFolder { folder in
            let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
            let settings = SQLiteKVStore(database: database, namespace: "app")
            let secrets = SQLiteCrypt(database: database, namespace: "app", masterKey: testMasterKey())

            try settings.set(KVKey<String>("token"), value: "visible")
            try secrets.set("hidden", for: CryptKey<String>(key: "token"))
            #expect(settings.get(KVKey<String>("token")) == "visible")
            #expect(try secrets.get(CryptKey<String>(key: "token")) == "hidden")

            try secrets.deleteAll()
            #expect(settings.get(KVKey<String>("token")) == "visible")
            #expect(try secrets.keys().isEmpty)
            try secrets.set("hidden again", for: CryptKey<String>(key: "token"))
            try settings.removeAll()
            #expect(try settings.keys().isEmpty)
            #expect(try secrets.get(CryptKey<String>(key: "token")) == "hidden again")
        }
    }

    @Test func namespacesNeverSeeEachOthersSecrets() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let database = SQLiteDatabase(fileURL: file)
            let key = testMasterKey()
            let alice = SQLiteCrypt(database: database, namespace: "alice", masterKey: key)
            let bob = SQLiteCrypt(database: database, namespace: "bob", masterKey: key)
            let token = CryptKey<String>(key: "token")

            try alice.set("alice's", for: token)
            try bob.set("bob's", for: token)
            try bob.deleteAll()
            #expect(try alice.get(token) == "alice's")
            #expect(try bob.get(token) == nil)
            #expect(try alice.keys() == ["token"])
            #expect(try alice.itemCount() == 1)
            #expect(try bob.itemCount() == 0)

            // Each namespace has its own header, so a sealed item copied across namespaces does not open.
            let headers = try DatabaseQueue(path: file.path)
                .read { db in
                    try Data.fetchAll(db, sql: "SELECT sealed FROM forge_secrets WHERE item = 'header'")
                }
            #expect(Set(headers).count == 2)
        }
    }
}
