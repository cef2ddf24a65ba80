internal import ForgeKVStore
internal import Foundation
internal import GRDB

/// The table of the key-value stores, `forge_kv`, and the SQL each store operation runs on it.
///
/// One row per value: `(namespace BLOB, name BLOB, value TEXT)`, keyed by the namespace and the name. Namespaces
/// and names are kept as the UTF-8 bytes of their canonical (NFC) form, so that any string (one holding a NUL too,
/// which SQLite's text binding would cut) is a key, and `"café"` is one key however it is typed. A value is the JSON
/// the library's other stores write, as text.
enum SQLiteKVTable {
    /// The version of the table's shape that this code reads and writes, kept in `forge_schema`.
    static let schemaVersion = 1

    static let create = """
        CREATE TABLE forge_kv (
            namespace BLOB NOT NULL,
            name BLOB NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (namespace, name)
        ) WITHOUT ROWID
        """
    static let select = "SELECT value FROM forge_kv WHERE namespace = ? AND name = ?"
    static let upsert = "INSERT OR REPLACE INTO forge_kv (namespace, name, value) VALUES (?, ?, ?)"
    static let delete = "DELETE FROM forge_kv WHERE namespace = ? AND name = ?"
    static let deleteAll = "DELETE FROM forge_kv WHERE namespace = ?"
    static let names = "SELECT name FROM forge_kv WHERE namespace = ?"

    /// The columns of the table, as `PRAGMA table_info` gives them: name, declared type, position in the key.
    private static let columns: [ColumnShape] = [
        ColumnShape(name: "namespace", type: "BLOB", primaryKeyPosition: 1),
        ColumnShape(name: "name", type: "BLOB", primaryKeyPosition: 2),
        ColumnShape(name: "value", type: "TEXT", primaryKeyPosition: 0),
    ]

    /// `text` (a namespace or a name) as rows store it: the UTF-8 of its canonical form.
    static func stored(_ text: String) -> Data {
        // ASCII is in canonical form already: most keys skip Foundation's normalisation.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return Data(text.utf8) }
        return Data(text.precomposedStringWithCanonicalMapping.utf8)
    }

    /// The text a row stores as `stored`.
    static func text(fromStored stored: Data) -> String {
        String(decoding: stored, as: UTF8.self)
    }

    /// Creates the table when it is missing, or checks that the one there has the shape and version this code knows;
    /// run in a write transaction.
    ///
    /// - Throws: ``SchemaProblem`` when a table of ours is in an unknown shape or of a newer version; SQLite's error
    ///   when the file is not a database.
    static func prepare(_ db: Database, path: String) throws {
        try db.execute(
            sql:
                "CREATE TABLE IF NOT EXISTS forge_schema (component TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL)"
        )
        let version = try Int.fetchOne(db, sql: "SELECT version FROM forge_schema WHERE component = 'kv'")
        let exists = try db.tableExists("forge_kv")
        switch (exists, version) {
        case (false, _):
            try db.execute(sql: create)
            try db.execute(
                sql: "INSERT OR REPLACE INTO forge_schema (component, version) VALUES ('kv', ?)",
                arguments: [schemaVersion]
            )
        case (true, let version?) where version > schemaVersion:
            throw SchemaProblem(
                reason: .other(
                    "the table forge_kv of '\(path)' is of schema version \(version), newer than this ForgeSQLite's "
                        + "\(schemaVersion)"
                )
            )
        case (true, schemaVersion):
            let found = try Row.fetchAll(db, sql: "PRAGMA table_info(forge_kv)")
                .map {
                    ColumnShape(
                        name: $0["name"],
                        type: ($0["type"] as String).uppercased(),
                        primaryKeyPosition: $0["pk"]
                    )
                }
            guard found == columns else {
                throw SchemaProblem(
                    reason: .other("the table forge_kv of '\(path)' is not in the shape of ForgeSQLite's")
                )
            }
        case (true, _):
            throw SchemaProblem(
                reason: .other("'\(path)' has a table forge_kv that ForgeSQLite did not make (no schema version)")
            )
        }
    }

    /// A column as `PRAGMA table_info` describes it.
    private struct ColumnShape: Equatable {
        var name: String
        var type: String
        var primaryKeyPosition: Int
    }
}

/// A database whose tables of ours this code cannot use: `reason` says why.
struct SchemaProblem: Error {
    let reason: FailureReason
}
