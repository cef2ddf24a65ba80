internal import ForgeCrypt
internal import Foundation
internal import GRDB

/// Reading a secrets table without the master key and without opening a secret, for tools that inspect a database
/// (such as the `forge inspect` command of the examples).
///
/// The namespaces are in the clear, as a vault's folder names are; the keys are not: without the master key a tool
/// can tell which namespaces hold secrets and how many, never which keys.
extension SQLiteCrypt {
    /// The table of the secret stores' rows, as tools name it.
    public static let tableName = SQLiteCryptTable.name

    /// The namespaces that hold a row of the secrets table in `database` (a header, secrets, or both), each as a
    /// store's ``namespace``, sorted; no master key is needed.
    ///
    /// A namespace whose secrets were all removed is listed while its header row stays. It reads the table and writes
    /// nothing, so it works on a read-only database (``SQLiteDatabase/isReadOnly``), where a table that does not exist
    /// holds none; a writable database opens as it does for any call of a store, making its missing tables.
    ///
    /// - Parameter database: The database, opened first when needed.
    /// - Returns: The namespaces, each once.
    /// - Throws: `CryptStoreError.listFailed(underlying:)`, also when the table is in a shape this version does not
    ///   know.
    public static func namespaces(database: SQLiteDatabase) throws -> [String] {
        let stored: [Data]
        do {
            stored = try database.read { db in
                guard try SQLiteCryptTable.check(db, path: database.path) else { return [] }
                return try Data.fetchAll(db, sql: SQLiteCryptTable.namespaces)
            }
        } catch {
            throw CryptStoreError.listFailed(underlying: FailureReason(sqlite: error, path: database.path))
        }
        return Set(stored.map { String(decoding: $0, as: UTF8.self) }).sorted()
    }

    /// How many secrets `namespace` holds in `database`, counted without a store and without the master key.
    ///
    /// No sealed item is read or opened, and the header row is not counted. Nil when the namespace holds no row
    /// (neither a header nor a secret) or the table does not exist.
    ///
    /// Secrets whose header row is gone are counted: a store refuses to open them (`CryptStoreError.corruptVault`),
    /// and a tool should show them rather than hide them. So is a sealed item that does not open, as
    /// ``itemCount()`` counts it; a row whose `item` is not an item's name is not.
    ///
    /// ```swift
    /// let database = SQLiteDatabase(fileURL: fileURL, readOnly: true)
    /// if let count = try SQLiteCrypt.itemCount(database: database, namespace: "auth") {
    ///     print("\(count) secret(s)")
    /// }
    /// ```
    ///
    /// It reads the table and writes nothing, so it works on a read-only database (``SQLiteDatabase/isReadOnly``); a
    /// writable database opens as it does for any call of a store, making its missing tables.
    ///
    /// - Parameters:
    ///   - database: The database, opened first when needed.
    ///   - namespace: The namespace whose secrets to count, as a store names it.
    /// - Returns: The number of secrets, or nil when the namespace holds no row.
    /// - Throws: `CryptStoreError.listFailed(underlying:)`, also when the table is in a shape this version does not
    ///   know.
    public static func itemCount(database: SQLiteDatabase, namespace: String) throws -> Int? {
        let items: [String]
        do {
            items = try database.read { db in
                guard try SQLiteCryptTable.check(db, path: database.path) else { return [] }
                return try String.fetchAll(
                    db.cachedStatement(sql: SQLiteCryptTable.rows),
                    arguments: [SQLiteCryptTable.stored(namespace: namespace)]
                )
            }
        } catch {
            throw CryptStoreError.listFailed(underlying: FailureReason(sqlite: error, path: database.path))
        }
        guard !items.isEmpty else { return nil }
        return items.filter(SecretSealer.isItemName).count
    }
}
