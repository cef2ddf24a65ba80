internal import ForgeKVStore
internal import GRDB

/// The tables of one of the stores' components as this code knows them: their names, the statements that create them,
/// their columns, and the version of their shape, which `forge_schema` keeps under ``component``.
///
/// ``prepare(_:path:)`` creates the tables when none is there, or checks that those there are the ones this code
/// made: a table of another shape (a missing one among several too), tables made without a version, or of a newer
/// version, is a ``SchemaProblem``, and the file is left as it was; so is a newer version kept for tables that are all
/// missing. Tables of an older version are brought to this one by the statements of ``upgrades``, in the same write
/// transaction, and then checked as tables of this version are. ``check(_:path:)`` checks the same without creating or
/// upgrading anything, for a read-only database, which refuses tables of an older version. Messages about the version
/// name the first table.
struct SQLiteTableSchema {
    /// The component's row in `forge_schema`.
    let component: String
    /// The version of the tables' shape that this code reads and writes.
    let version: Int
    /// The tables, the one that messages about the version name first.
    let tables: [Table]
    /// The statements that bring the tables of each older version to the next one, by the version they start from.
    ///
    /// `[1: ["ALTER TABLE …"]]` upgrades version 1 to 2. A version without an entry cannot be upgraded.
    let upgrades: [Int: [String]]

    /// A table: its name, the statement that creates it, its columns as `PRAGMA table_info` gives them.
    struct Table {
        let name: String
        let create: String
        let columns: [Column]
    }

    /// A column as `PRAGMA table_info` describes it: name, declared type, position in the primary key (0 when none).
    struct Column: Equatable {
        var name: String
        var type: String
        var primaryKeyPosition: Int
    }

    /// The schema of a component of one table.
    init(
        name: String,
        component: String,
        version: Int,
        create: String,
        columns: [Column],
        upgrades: [Int: [String]] = [:]
    ) {
        self.init(
            component: component,
            version: version,
            tables: [Table(name: name, create: create, columns: columns)],
            upgrades: upgrades
        )
    }

    /// The schema of a component of one or more tables, `tables` not empty.
    init(component: String, version: Int, tables: [Table], upgrades: [Int: [String]] = [:]) {
        self.component = component
        self.version = version
        self.tables = tables
        self.upgrades = upgrades
    }

    /// Creates the tables when none is there, or checks that those there have the shape and version this code knows;
    /// run in a write transaction.
    ///
    /// - Throws: ``SchemaProblem`` when a table is in an unknown shape or of a newer version, when only some of the
    ///   tables are there, or when none is but `forge_schema` keeps a newer version for the component (a newer
    ///   ForgeSQLite dropped them, or is moving them): this code then neither creates them nor changes the version;
    ///   SQLite's error when the file is not a database. Tables of an older version are upgraded (see ``upgrades``);
    ///   one that cannot be is a ``SchemaProblem``, and the transaction, rolled back, leaves the file as it was.
    func prepare(_ db: Database, path: String) throws {
        try db.execute(
            sql:
                "CREATE TABLE IF NOT EXISTS forge_schema (component TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL)"
        )
        guard try !check(db, path: path, upgrading: true) else { return }
        for table in tables { try db.execute(sql: table.create) }
        try db.execute(
            sql: "INSERT OR REPLACE INTO forge_schema (component, version) VALUES (?, ?)",
            arguments: [component, version]
        )
    }

    /// Checks the tables there without creating or changing anything: for a read-only database, whose missing tables
    /// hold no row.
    ///
    /// - Returns: Whether any of the tables is there (then all are, as this code made them).
    /// - Throws: ``SchemaProblem`` as ``prepare(_:path:)`` throws it, and for tables of an older version, which a
    ///   read-only database cannot upgrade; SQLite's error when the file is not a database.
    @discardableResult
    func check(_ db: Database, path: String) throws -> Bool {
        try check(db, path: path, upgrading: false)
    }

    /// Checks the tables there, upgrading those of an older version when `upgrading`.
    ///
    /// - Returns: Whether any of the tables is there (then all are, as this code made them, at this version).
    private func check(_ db: Database, path: String, upgrading: Bool) throws -> Bool {
        let found =
            try db.tableExists("forge_schema")
            ? try Int.fetchOne(db, sql: "SELECT version FROM forge_schema WHERE component = ?", arguments: [component])
            : nil
        let name = tables[0].name
        guard try tables.contains(where: { try db.tableExists($0.name) }) else {
            if let found, found > version {
                throw SchemaProblem(
                    reason: .other(
                        "'\(path)' keeps the tables of \(name) at schema version \(found), newer than this "
                            + "ForgeSQLite's \(version), and they are missing: a newer ForgeSQLite removed them or is "
                            + "moving them"
                    )
                )
            }
            return false
        }
        switch found {
        case let found? where found > version:
            throw SchemaProblem(
                reason: .other(
                    "the table \(name) of '\(path)' is of schema version \(found), newer than this ForgeSQLite's "
                        + "\(version)"
                )
            )
        case let found? where found < version:
            guard upgrading else {
                throw SchemaProblem(
                    reason: .other(
                        "the table \(name) of '\(path)' is of schema version \(found), older than this ForgeSQLite's "
                            + "\(version): open it writable once to upgrade it"
                    )
                )
            }
            try upgrade(db, from: found, path: path)
            try checkShapes(db, path: path)
            return true
        case version:
            try checkShapes(db, path: path)
            return true
        default:
            throw SchemaProblem(
                reason: .other("'\(path)' has a table \(name) that ForgeSQLite did not make (no schema version)")
            )
        }
    }

    /// Runs the statements of ``upgrades`` from `found` to ``version``, and records the version; run in the write
    /// transaction of ``prepare(_:path:)``, which a failure rolls back.
    ///
    /// - Throws: ``SchemaProblem`` when a version on the way has no upgrade; SQLite's error of a statement.
    private func upgrade(_ db: Database, from found: Int, path: String) throws {
        for step in found..<version {
            guard let statements = upgrades[step] else {
                throw SchemaProblem(
                    reason: .other(
                        "the table \(tables[0].name) of '\(path)' is of schema version \(found), which this "
                            + "ForgeSQLite cannot upgrade to \(version)"
                    )
                )
            }
            for statement in statements { try db.execute(sql: statement) }
        }
        try db.execute(
            sql: "UPDATE forge_schema SET version = ? WHERE component = ?",
            arguments: [version, component]
        )
    }

    /// Checks that each table has the columns of this version.
    ///
    /// - Throws: ``SchemaProblem`` naming the first table that does not.
    private func checkShapes(_ db: Database, path: String) throws {
        for table in tables {
            let shape = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table.name))")
                .map {
                    Column(
                        name: $0["name"],
                        type: ($0["type"] as String).uppercased(),
                        primaryKeyPosition: $0["pk"]
                    )
                }
            guard shape == table.columns else {
                throw SchemaProblem(
                    reason: .other("the table \(table.name) of '\(path)' is not in the shape of ForgeSQLite's")
                )
            }
        }
    }
}

/// A database whose tables of ours this code cannot use: `reason` says why.
struct SchemaProblem: Error {
    let reason: FailureReason
}
