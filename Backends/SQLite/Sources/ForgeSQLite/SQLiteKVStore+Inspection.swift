internal import ForgeKVStore
internal import Foundation
internal import GRDB

/// Reading a database without knowing its keys in advance, for tools that inspect one (such as the `forge inspect`
/// command of the examples) and for migrations.
extension SQLiteKVStore {
    /// The table of the key-value stores' rows, as tools name it.
    public static let tableName = SQLiteKVTable.name

    /// The namespaces that hold a value in `database`, each as a store's ``namespace``, sorted.
    ///
    /// It reads the table and writes nothing, so it works on a read-only database (``SQLiteDatabase/isReadOnly``),
    /// where a table that does not exist holds none. A writable database opens as it does for any call of a store,
    /// making its missing tables: to leave a file exactly as it is, give a read-only one.
    ///
    /// ```swift
    /// let database = SQLiteDatabase(fileURL: fileURL, readOnly: true)
    /// for namespace in try SQLiteKVStore.namespaces(database: database) {
    ///     print(namespace, try SQLiteKVStore(database: database, namespace: namespace).keys())
    /// }
    /// ```
    ///
    /// - Parameter database: The database, opened first when needed.
    /// - Returns: The namespaces, each once.
    /// - Throws: `KVStoreError/listFailed(underlying:)`.
    public static func namespaces(database: SQLiteDatabase) throws -> [String] {
        let stored: [Data]
        do {
            stored = try database.read { db in
                guard try db.tableExists(SQLiteKVTable.name) else { return [] }
                return try Data.fetchAll(db, sql: SQLiteKVTable.namespaces)
            }
        } catch {
            throw KVStoreError.listFailed(underlying: FailureReason(sqlite: error, path: database.path))
        }
        return Set(stored.map(SQLiteKVTable.text(fromStored:))).sorted()
    }
}
