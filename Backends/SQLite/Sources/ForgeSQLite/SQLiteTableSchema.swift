internal import ForgeKVStore
internal import GRDB

/// A table of the stores as this code knows it: its name, the statement that creates it, its columns, and the version
/// of its shape, which `forge_schema` keeps under ``component``.
///
/// Each table's ``prepare(_:path:)`` creates it when missing, or checks that the one there is the one this code made:
/// a table of another shape, one made without a version, or one of a newer version is a ``SchemaProblem``, and the
/// file is left as it was.
struct SQLiteTableSchema {
    /// The table's name.
    let name: String
    /// The table's row in `forge_schema`.
    let component: String
    /// The version of the table's shape that this code reads and writes.
    let version: Int
    /// The statement that creates the table.
    let create: String
    /// The columns, as `PRAGMA table_info` gives them.
    let columns: [Column]

    /// A column as `PRAGMA table_info` describes it: name, declared type, position in the primary key (0 when none).
    struct Column: Equatable {
        var name: String
        var type: String
        var primaryKeyPosition: Int
    }

    /// Creates the table when it is missing, or checks that the one there has the shape and version this code knows;
    /// run in a write transaction.
    ///
    /// - Throws: ``SchemaProblem`` when the table is in an unknown shape or of a newer version; SQLite's error when the
    ///   file is not a database.
    func prepare(_ db: Database, path: String) throws {
        try db.execute(
            sql:
                "CREATE TABLE IF NOT EXISTS forge_schema (component TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL)"
        )
        let found = try Int.fetchOne(
            db,
            sql: "SELECT version FROM forge_schema WHERE component = ?",
            arguments: [component]
        )
        switch (try db.tableExists(name), found) {
        case (false, _):
            try db.execute(sql: create)
            try db.execute(
                sql: "INSERT OR REPLACE INTO forge_schema (component, version) VALUES (?, ?)",
                arguments: [component, version]
            )
        case (true, let found?) where found > version:
            throw SchemaProblem(
                reason: .other(
                    "the table \(name) of '\(path)' is of schema version \(found), newer than this ForgeSQLite's "
                        + "\(version)"
                )
            )
        case (true, version):
            let shape = try Row.fetchAll(db, sql: "PRAGMA table_info(\(name))")
                .map {
                    Column(name: $0["name"], type: ($0["type"] as String).uppercased(), primaryKeyPosition: $0["pk"])
                }
            guard shape == columns else {
                throw SchemaProblem(
                    reason: .other("the table \(name) of '\(path)' is not in the shape of ForgeSQLite's")
                )
            }
        case (true, _):
            throw SchemaProblem(
                reason: .other("'\(path)' has a table \(name) that ForgeSQLite did not make (no schema version)")
            )
        }
    }
}
