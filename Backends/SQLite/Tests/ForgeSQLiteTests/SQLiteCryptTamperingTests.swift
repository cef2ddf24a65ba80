import ForgeSQLite
import Foundation
import GRDB
import Testing

/// A row changed by another connection is detected as the vault detects a damaged item: a typed error naming the key,
/// never another secret or nil.
struct SQLiteCryptTamperingTests {
    @Test func aFlippedByteInASealedItemIsTampered() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let token = CryptKey<String>(key: "auth.token")
            let store = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: testMasterKey())
            try store.set("s3cr3t", for: token)

            let other = try DatabaseQueue(path: file.path)
            try other.write { db in
                let row = try #require(
                    try Row.fetchOne(db, sql: "SELECT item, sealed FROM forge_secrets WHERE item <> 'header'")
                )
                var sealed: Data = row["sealed"]
                sealed[sealed.count - 1] ^= 0x01
                try db.execute(
                    sql: "UPDATE forge_secrets SET sealed = ? WHERE item = ?",
                    arguments: [sealed, row["item"] as String]
                )
            }

            #expect(throws: CryptStoreError.tamperedItem(key: "auth.token")) { try store.get(token) }
            #expect(throws: CryptStoreError.self) { try store.keys() }
            #expect(try store.itemCount() == 1)
            try store.set("new", for: token)
            #expect(try store.get(token) == "new")
        }
    }

    @Test func aSealedItemCopiedOntoAnotherKeysRowIsTampered() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let alice = CryptKey<String>(key: "alice")
            let bob = CryptKey<String>(key: "bob")
            let store = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: testMasterKey())
            try store.set("alice's", for: alice)
            try store.set("bob's", for: bob)

            let other = try DatabaseQueue(path: file.path)
            try other.write { db in
                let rows = try Row.fetchAll(db, sql: "SELECT item, sealed FROM forge_secrets WHERE item <> 'header'")
                let (first, second) = (rows[0], rows[1])
                try db.execute(
                    sql: "UPDATE forge_secrets SET sealed = ? WHERE item = ?",
                    arguments: [first["sealed"] as Data, second["item"] as String]
                )
            }

            let results = [Result { try store.get(alice) }, Result { try store.get(bob) }]
            let tampered = results.compactMap { result -> CryptStoreError? in
                guard case .failure(let error as CryptStoreError) = result else { return nil }
                return error
            }
            #expect(tampered.count == 1)
            #expect(tampered.allSatisfy { if case .tamperedItem = $0 { true } else { false } })
        }
    }

    @Test func aHeaderRowRemovedWhileItemsRemainIsACorruptNamespace() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let key = testMasterKey()
            try SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: key)
                .set("s3cr3t", for: CryptKey(key: "token"))
            let other = try DatabaseQueue(path: file.path)
            try other.write { db in try db.execute(sql: "DELETE FROM forge_secrets WHERE item = 'header'") }

            let store = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: key)
            let error = try #require(throws: CryptStoreError.self) { try store.get(CryptKey<String>(key: "token")) }
            guard case .corruptVault = error else {
                Issue.record("unexpected error \(error)")
                return
            }
        }
    }
}
