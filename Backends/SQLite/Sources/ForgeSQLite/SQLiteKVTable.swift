internal import ForgeKVStore
internal import Foundation
internal import GRDB

/// The table of the key-value stores, `forge_kv`, and the SQL each store operation runs on it.
///
/// One row per value: `(namespace BLOB, name BLOB, value TEXT, expires_at INTEGER)`, keyed by the namespace and the
/// name. Namespaces and names are kept as the UTF-8 bytes of their canonical (NFC) form, so that any string (one
/// holding a NUL too, which SQLite's text binding would cut) is a key, and `"café"` is one key however it is typed. A
/// value is the JSON the library's other stores write, as text; `expires_at` is when it expires, in whole milliseconds
/// since 1970, NULL for a value without a lifetime. The index `forge_kv_expiry` holds the rows that have one, so that
/// a reclaim finds expired rows without reading the others.
///
/// Version 1 had no `expires_at` and no index; a database of version 1 is upgraded when it is opened for writing.
enum SQLiteKVTable {
    /// The version of the table's shape that this code reads and writes, kept in `forge_schema`.
    static let schemaVersion = 2

    /// The table's name.
    static let name = "forge_kv"

    static let create = """
        CREATE TABLE forge_kv (
            namespace BLOB NOT NULL,
            name BLOB NOT NULL,
            value TEXT NOT NULL,
            expires_at INTEGER,
            PRIMARY KEY (namespace, name)
        ) WITHOUT ROWID;
        \(createExpiryIndex)
        """
    /// The index of the rows that have a lifetime, by namespace and expiration.
    static let createExpiryIndex =
        "CREATE INDEX forge_kv_expiry ON forge_kv (namespace, expires_at) WHERE expires_at IS NOT NULL"
    static let select = "SELECT value, expires_at FROM forge_kv WHERE namespace = ? AND name = ?"
    /// Run only by `RowStatements`, as is ``delete``: GRDB no longer knows their arguments once they have run there.
    static let upsert = "INSERT OR REPLACE INTO forge_kv (namespace, name, value, expires_at) VALUES (?, ?, ?, ?)"
    /// Stores a row unless its row holds a value not expired at a time in milliseconds, the fifth argument.
    ///
    /// An insert whose conflict updates only a row that has expired, so that SQLite counts no change when the row
    /// lives: one statement, which SQLite checks and writes under the database's write lock.
    static let insertIfAbsent = """
        INSERT INTO forge_kv (namespace, name, value, expires_at) VALUES (?, ?, ?, ?)
        ON CONFLICT (namespace, name) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at
        WHERE forge_kv.expires_at IS NOT NULL AND forge_kv.expires_at <= ?
        """
    static let delete = "DELETE FROM forge_kv WHERE namespace = ? AND name = ?"
    static let deleteAll = "DELETE FROM forge_kv WHERE namespace = ?"
    /// Whether the table holds a row of another namespace than the one given: two searches of the primary key.
    static let holdsOtherNamespaces = """
        SELECT EXISTS (SELECT 1 FROM forge_kv WHERE namespace < ?1) OR EXISTS (SELECT 1 FROM forge_kv WHERE namespace > ?1)
        """
    /// Every row, when they are all of one namespace: SQLite then empties the table at once rather than row by row.
    static let deleteEveryRow = "DELETE FROM forge_kv"
    static let names = "SELECT name FROM forge_kv WHERE namespace = ? ORDER BY name"
    /// Whether a value of the namespace has a lifetime: one search of the index of lifetimes.
    static let hasLifetimes =
        "SELECT EXISTS (SELECT 1 FROM forge_kv WHERE namespace = ? AND expires_at IS NOT NULL)"
    /// The names whose value has not expired at a time in milliseconds (expired: `expires_at` at or before it).
    ///
    /// Both listings are in the primary key's order, which is the order of `keys()`: names are canonical UTF-8, whose
    /// byte order is the order of Unicode scalars, as Swift compares canonical strings.
    static let liveNames =
        "SELECT name FROM forge_kv WHERE namespace = ? AND (expires_at IS NULL OR expires_at > ?) ORDER BY name"
    /// Removes up to a number of values expired at a time in milliseconds, in one statement, and returns their names:
    /// a value stored again since is not expired, and stays.
    static let deleteExpired = """
        DELETE FROM forge_kv WHERE namespace = ? AND name IN (
            SELECT name FROM forge_kv WHERE namespace = ? AND expires_at <= ? LIMIT ?
        ) RETURNING name
        """
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
            .init(name: "expires_at", type: "INTEGER", primaryKeyPosition: 0),
        ],
        upgrades: [
            1: ["ALTER TABLE forge_kv ADD COLUMN expires_at INTEGER", createExpiryIndex]
        ]
    )

    /// `text` (a namespace or a name) as rows store it: the UTF-8 of its canonical form.
    static func stored(_ text: String) -> Data {
        // ASCII is in canonical form already: most keys skip Foundation's normalisation.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return Data(text.utf8) }
        return Data(text.precomposedStringWithCanonicalMapping.utf8)
    }

    /// The bytes of a row's value: the text this code writes, or what another program stored in its place (a blob's
    /// bytes, a number's digits, nothing for NULL), which then decodes as the JSON it is, or as no type.
    static func json(of value: DatabaseValue) -> Data {
        switch value.storage {
        case .string(let text): Data(text.utf8)
        case .blob(let bytes): bytes
        case .int64(let number): Data(String(number).utf8)
        case .double(let number): Data(String(number).utf8)
        case .null: Data()
        }
    }

    /// The latest whole millisecond since 1970 that is not after `date`: a row whose `expires_at` is this or earlier
    /// has expired at `date`, exactly as `KVStoredValue.isExpired(at:)` says of the value read back.
    static func milliseconds(expiredAt date: Date) -> Int64 {
        var milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        // The product may round across a whole millisecond: step to where the dates read back compare as they do.
        while self.date(milliseconds: milliseconds) > date { milliseconds -= 1 }
        while self.date(milliseconds: milliseconds + 1) <= date { milliseconds += 1 }
        return milliseconds
    }

    /// The date `milliseconds` after 1970, as `KVStoredValue(json:expiresAtMilliseconds:)` reads it back.
    private static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
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
