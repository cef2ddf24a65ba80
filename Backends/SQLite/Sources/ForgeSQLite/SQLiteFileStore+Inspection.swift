internal import ForgeFileStore
internal import Foundation
internal import GRDB

/// Reading a database without knowing its paths in advance, for tools that inspect one (such as the `forge inspect`
/// command of the examples).
extension SQLiteFileStore {
    /// The table of the file stores' rows, one per file, as tools name it (the contents are in a table beside it).
    public static let tableName = SQLiteFileTable.name

    /// The namespaces that hold a file in `database`, each as a store's ``namespace``, sorted.
    ///
    /// It reads the tables and writes nothing, so it works on a read-only database (``SQLiteDatabase/isReadOnly``),
    /// where tables that do not exist hold none. A writable database opens as it does for any call of a store, making
    /// its missing tables: to leave a file exactly as it is, give a read-only one.
    ///
    /// - Parameter database: The database, opened first when needed.
    /// - Returns: The namespaces, each once.
    /// - Throws: `FileStoreError.listFailed(path:reason:)` with an empty path.
    public static func namespaces(database: SQLiteDatabase) throws -> [String] {
        let stored: [Data]
        do {
            stored = try database.read { db in
                guard try db.tableExists(SQLiteFileTable.name) else { return [] }
                return try Data.fetchAll(db, sql: SQLiteFileTable.namespaces)
            }
        } catch {
            throw FileStoreError.listFailed(path: "", reason: FailureReason(sqlite: error, path: database.path))
        }
        return Set(stored.map(SQLiteFileTable.text(fromStored:))).sorted()
    }
}
