internal import ForgeCrypt
internal import Foundation
internal import GRDB

/// The table of the secret stores, `forge_secrets`, and the SQL each store operation runs on it.
///
/// For each namespace, one row per secret and one header row: `(namespace BLOB, item TEXT, sealed BLOB)`, keyed by the
/// namespace and the item. `namespace` is the UTF-8 of the namespace's canonical (NFC) form, as in `forge_kv`. A
/// secret's `item` is its `SecretSealer` item name (a keyed hash of the key name, 64 hex digits) and `sealed` the
/// sealed item (the secret and its key name, bound to the item name); the header row's `item` is ``headerItem`` and
/// `sealed` the sealer's header (a random identifier, the kind of master key, a key-check value). No column holds a
/// key name or a secret.
enum SQLiteCryptTable {
    /// The version of the table's shape that this code reads and writes, kept in `forge_schema`.
    static let schemaVersion = 1

    /// The table's name.
    static let name = "forge_secrets"

    /// The `item` of a namespace's header row: not 64 hex digits, so never an item's name.
    static let headerItem = "header"

    static let create = """
        CREATE TABLE forge_secrets (
            namespace BLOB NOT NULL,
            item TEXT NOT NULL,
            sealed BLOB NOT NULL,
            PRIMARY KEY (namespace, item)
        ) WITHOUT ROWID
        """
    static let select = "SELECT sealed FROM forge_secrets WHERE namespace = ? AND item = ?"
    static let exists = "SELECT EXISTS (SELECT 1 FROM forge_secrets WHERE namespace = ? AND item = ?)"
    static let upsert = "INSERT OR REPLACE INTO forge_secrets (namespace, item, sealed) VALUES (?, ?, ?)"
    static let insertIfMissing = "INSERT OR IGNORE INTO forge_secrets (namespace, item, sealed) VALUES (?, ?, ?)"
    static let delete = "DELETE FROM forge_secrets WHERE namespace = ? AND item = ?"
    static let deleteItems = "DELETE FROM forge_secrets WHERE namespace = ? AND item <> '\(headerItem)'"
    static let items = "SELECT item, sealed FROM forge_secrets WHERE namespace = ? AND item <> '\(headerItem)'"
    static let namespaces = "SELECT DISTINCT namespace FROM forge_secrets"
    /// Every `item` of a namespace, its header's too.
    static let rows = "SELECT item FROM forge_secrets WHERE namespace = ?"
    static let hasItems = "SELECT EXISTS (SELECT 1 FROM forge_secrets WHERE namespace = ? AND item <> '\(headerItem)')"

    /// The table's shape, created or checked by ``prepare(_:path:)``.
    private static let schema = SQLiteTableSchema(
        name: name,
        component: "crypt",
        version: schemaVersion,
        create: create,
        columns: [
            .init(name: "namespace", type: "BLOB", primaryKeyPosition: 1),
            .init(name: "item", type: "TEXT", primaryKeyPosition: 2),
            .init(name: "sealed", type: "BLOB", primaryKeyPosition: 0),
        ]
    )

    /// `namespace` as rows store it: the UTF-8 of its canonical form.
    static func stored(namespace: String) -> Data {
        Data(namespace.precomposedStringWithCanonicalMapping.utf8)
    }

    /// Creates the table when it is missing, or checks that the one there has the shape and version this code knows;
    /// run in a write transaction.
    ///
    /// - Throws: ``SchemaProblem`` when the table is in an unknown shape or of a newer version.
    static func prepare(_ db: Database, path: String) throws {
        try schema.prepare(db, path: path)
    }

    /// Checks the table when it is there, creating nothing: for a read-only database, and for an inspection.
    ///
    /// - Returns: Whether the table is there.
    /// - Throws: ``SchemaProblem`` as ``prepare(_:path:)`` throws it.
    @discardableResult
    static func check(_ db: Database, path: String) throws -> Bool {
        try schema.check(db, path: path)
    }

    /// The header `namespace` holds, or nil when it has none.
    static func header(of namespace: Data, in db: Database) throws -> Data? {
        try Data.fetchOne(db.cachedStatement(sql: select), arguments: [namespace, headerItem])
    }
}
