import ForgeSQLite
import Foundation
import Testing

/// The synchronous `StorageTransaction.run` commits on the SQLite stores before it returns, and returns what its body
/// returns.
struct SQLiteTransactionSyncTests {
    @Test func theSynchronousFormAppliesAtOnceAndReturnsTheBodysResult() async throws {
        try await withStoresOfOneDatabase { stores in
            let returned = try Self.commitSynchronously(stores)

            #expect(returned == 7)
            #expect(stores.settings.get(KVKey<String>("user")) == "ada")
            #expect(try await stores.files.load("notes/today.txt") == Data("hello".utf8))
            #expect(try stores.secrets.get(CryptKey<String>(key: "token")) == "s3cr3t")
        }
    }

    /// Runs a transaction of each kind of store with the synchronous `run`, from a function that cannot await.
    private static func commitSynchronously(_ stores: StoresOfOneDatabase) throws -> Int {
        try StorageTransaction.run { transaction in
            try transaction.set(KVKey<String>("user"), value: "ada", in: stores.settings)
            try transaction.save(Data("hello".utf8), to: "notes/today.txt", in: stores.files)
            try transaction.set("s3cr3t", for: CryptKey<String>(key: "token"), in: stores.secrets)
            return 7
        }
    }
}
