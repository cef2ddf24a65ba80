import ForgeSQLite
import Foundation

/// A store of each kind on one database, in namespaces of their own: what the tests of transactions run on.
struct StoresOfOneDatabase: Sendable {
    /// The database the stores share.
    let database: SQLiteDatabase
    /// A key-value store, `.atomic`.
    let settings: SQLiteKVStore
    /// A file store, `.atomic`.
    let files: SQLiteFileStore
    /// A secret store, `.flushed` as the vault, with a random master key.
    let secrets: SQLiteCrypt

    /// The stores of `database`.
    init(_ database: SQLiteDatabase) {
        self.database = database
        self.settings = SQLiteKVStore(database: database, namespace: "settings")
        self.files = SQLiteFileStore(database: database, namespace: "attachments")
        self.secrets = SQLiteCrypt(database: database, namespace: "auth", masterKey: testMasterKey())
    }
}

/// Runs `body` with a store of each kind on a new database file in a temporary folder, removed afterwards.
func withStoresOfOneDatabase<Result>(_ body: (StoresOfOneDatabase) async throws -> Result) async throws -> Result {
    try await withTemporaryFolder { folder in
        try await body(StoresOfOneDatabase(SQLiteDatabase(fileURL: databaseFile(in: folder))))
    }
}
