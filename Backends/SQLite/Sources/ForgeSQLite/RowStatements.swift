internal import Foundation
internal import GRDB
internal import GRDBSQLite

/// The key-value table's statements that write one row, looked up once for the writes of one transaction and run
/// through SQLite's C interface: each bound, stepped once and reset, with the row's bytes bound in place.
///
/// Why not GRDB's `execute(arguments:)`: per row it builds an array of arguments and runs its checks for transaction
/// observers, suspension and aborted transactions, which kept a transaction of many sets behind GRDB's own loop, which
/// stages nothing (the transaction rows of Benchmarks/README.md's SQLite section measure it). These statements write
/// one row on the writer, alone (SQLite commits it by itself) or inside a transaction begun through GRDB, on a
/// connection where no GRDB observer is registered: of GRDB's checks, only the one for an aborted transaction has
/// something to see, and it is made here. A failure is thrown as GRDB throws it, a `DatabaseError` with SQLite's
/// extended code and message; unlike GRDB, the statement stays in the connection's cache (SQLite resets a failed
/// statement for its next use). Only these writes run the table's upsert and delete, whose arguments GRDB no longer
/// knows once run here.
struct RowStatements {
    /// Whether the writes run inside a transaction, which SQLite may have rolled back by itself (on a full disk, an
    /// I/O error, a trigger's `RAISE(ROLLBACK)`) when an earlier write failed.
    private let isInTransaction: Bool
    private var upsert: Statement?
    private var delete: Statement?

    /// Statements for writes that run inside a transaction (`isInTransaction`), or alone.
    init(isInTransaction: Bool) {
        self.isInTransaction = isInTransaction
    }

    /// Stores the row of `key` on `db`: the value's JSON, to expire `expiresAt` milliseconds after 1970 (nil: never).
    ///
    /// - Throws: `DatabaseError` when SQLite refuses the row.
    mutating func store(_ key: ReadCache.Key, json: String, expiresAt: Int64?, in db: Database) throws {
        let statement = try Self.cached(&upsert, SQLiteKVTable.upsert, in: db)
        var json = json
        try key.namespace.withUnsafeBytes { namespace in
            try key.name.withUnsafeBytes { name in
                try json.withUTF8 { json in
                    try step(statement, in: db) { handle in
                        var code = Self.bindBlob(namespace, to: handle, at: 1)
                        if code == SQLITE_OK { code = Self.bindBlob(name, to: handle, at: 2) }
                        if code == SQLITE_OK { code = Self.bindText(json, to: handle, at: 3) }
                        if code == SQLITE_OK {
                            code = expiresAt.map { sqlite3_bind_int64(handle, 4, $0) } ?? sqlite3_bind_null(handle, 4)
                        }
                        return code
                    }
                }
            }
        }
    }

    /// Removes the row of `key` from `db`.
    ///
    /// - Throws: `DatabaseError` when SQLite fails.
    mutating func remove(_ key: ReadCache.Key, in db: Database) throws {
        let statement = try Self.cached(&delete, SQLiteKVTable.delete, in: db)
        try key.namespace.withUnsafeBytes { namespace in
            try key.name.withUnsafeBytes { name in
                try step(statement, in: db) { handle in
                    let code = Self.bindBlob(namespace, to: handle, at: 1)
                    return code == SQLITE_OK ? Self.bindBlob(name, to: handle, at: 2) : code
                }
            }
        }
    }

    /// The statement kept in `slot`, or `sql`'s statement from the connection's cache, kept there.
    private static func cached(_ slot: inout Statement?, _ sql: String, in db: Database) throws -> Statement {
        if let slot { return slot }
        let statement = try db.cachedStatement(sql: sql)
        slot = statement
        return statement
    }

    /// Binds with `bind`, then steps `statement` once, which must finish it; the statement is reset and its bindings
    /// cleared before this returns, so no pointer to the caller's bytes outlives the call.
    ///
    /// - Throws: `DatabaseError`: SQLite's failure, or `SQLITE_ABORT` when the transaction the write belongs to was
    ///   rolled back already, so that the row is not committed by itself.
    private func step(
        _ statement: Statement,
        in db: Database,
        binding bind: (SQLiteStatement) -> CInt
    ) throws {
        if isInTransaction, sqlite3_get_autocommit(db.sqliteConnection) != 0 {
            throw DatabaseError(resultCode: .SQLITE_ABORT, message: "Transaction was aborted", sql: statement.sql)
        }
        let handle = statement.sqliteStatement
        // GRDB resets a statement at its next use; SQLite binds only a statement that is reset.
        sqlite3_reset(handle)
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        var code = bind(handle)
        if code == SQLITE_OK { code = sqlite3_step(handle) }
        guard code == SQLITE_DONE else {
            // The message of the failure, read before the reset that follows.
            let message = db.sqliteConnection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
        }
    }

    /// SQLite's `SQLITE_TRANSIENT`, which C spells as a cast of -1: SQLite copies what is bound with it.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// Binds `bytes` as a blob at `index`, in place: an empty blob, not NULL, when there are none (a name is never
    /// NULL; Foundation gives empty `Data` an address, so this is the case of an empty name only in principle).
    private static func bindBlob(_ bytes: UnsafeRawBufferPointer, to handle: SQLiteStatement, at index: CInt) -> CInt {
        guard let base = bytes.baseAddress else { return sqlite3_bind_zeroblob(handle, index, 0) }
        return sqlite3_bind_blob64(handle, index, base, sqlite3_uint64(bytes.count), nil)
    }

    /// Binds `utf8` as text at `index`, in place: empty text, not NULL, when there is none.
    private static func bindText(_ utf8: UnsafeBufferPointer<UInt8>, to handle: SQLiteStatement, at index: CInt) -> CInt
    {
        guard let base = utf8.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, transient) }
        return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) { text in
            sqlite3_bind_text64(handle, index, text, sqlite3_uint64(utf8.count), nil, UInt8(SQLITE_UTF8))
        }
    }
}
