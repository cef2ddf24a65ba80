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

    /// The table's name.
    static let name = "forge_kv"

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
    static let namespaces = "SELECT DISTINCT namespace FROM forge_kv"

    /// The table's shape, created or checked by ``prepare(_:path:)``.
    private static let schema = SQLiteTableSchema(
        name: name,
        component: "kv",
        version: schemaVersion,
        create: create,
        columns: [
            .init(name: "namespace", type: "BLOB", primaryKeyPosition: 1),
            .init(name: "name", type: "BLOB", primaryKeyPosition: 2),
            .init(name: "value", type: "TEXT", primaryKeyPosition: 0),
        ]
    )

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
        try schema.prepare(db, path: path)
    }

    /// Checks the table when it is there, creating nothing: for a read-only database.
    ///
    /// - Returns: Whether the table is there.
    /// - Throws: ``SchemaProblem`` as ``prepare(_:path:)`` throws it.
    @discardableResult
    static func check(_ db: Database, path: String) throws -> Bool {
        try schema.check(db, path: path)
    }
}
