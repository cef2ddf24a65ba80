#if SQLite
import Foundation
import GRDB

/// The namespaces of the store tables of a ForgeSQLite database, read without opening a store or a vault.
///
/// ForgeSQLite has no listing of a database's namespaces (as `PostgresKVStore.namespaces(client:)` lists a
/// PostgreSQL database's), and `SQLiteCrypt.itemCount()` needs the master key, where a folder's vault is counted
/// without it. So `inspect` reads the tables' `namespace` columns itself, in the layout ForgeSQLite documents: the UTF-8
/// of the namespace in `forge_kv`, `forge_files` and `forge_secrets`, whose `header` row is no secret. The database
/// is opened read-only.
struct SQLiteCatalog {
    /// The tables of the key-value stores, the file stores and the secrets.
    static let keyValueTable = "forge_kv"
    static let filesTable = "forge_files"
    static let secretsTable = "forge_secrets"

    /// The namespaces that hold keys, sorted.
    var keyValue: [String] = []
    /// The namespaces that hold files, sorted.
    var files: [String] = []
    /// The number of secrets of each namespace of the secrets' table, header rows not counted.
    var secretCounts: [String: Int] = [:]

    /// Every namespace of the three tables, sorted.
    var namespaces: [String] {
        Set(keyValue + files + secretCounts.keys).sorted()
    }

    /// The namespaces of the database `fileURL`; a table that is missing holds none.
    ///
    /// - Throws: GRDB's `DatabaseError` when the file is not a SQLite database or cannot be read.
    static func read(fileURL: URL) throws -> SQLiteCatalog {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: fileURL.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            var catalog = SQLiteCatalog()
            catalog.keyValue = try namespaces(in: keyValueTable, db)
            catalog.files = try namespaces(in: filesTable, db)
            if try db.tableExists(secretsTable) {
                let rows = try Row.fetchAll(
                    db,
                    sql: "SELECT namespace, sum(item <> 'header') AS items FROM \(secretsTable) GROUP BY namespace"
                )
                for row in rows {
                    let namespace: Data = row["namespace"]
                    let items: Int = row["items"]
                    catalog.secretCounts[text(namespace)] = items
                }
            }
            return catalog
        }
    }

    private static func namespaces(in table: String, _ db: Database) throws -> [String] {
        guard try db.tableExists(table) else { return [] }
        return try Data.fetchAll(db, sql: "SELECT DISTINCT namespace FROM \(table)").map(text).sorted()
    }

    /// A namespace as the tables store it: its UTF-8.
    private static func text(_ stored: Data) -> String {
        String(decoding: stored, as: UTF8.self)
    }
}
#endif
