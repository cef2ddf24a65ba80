public import ForgeKVStore
public import Foundation
internal import GRDB

/// A `KVStoring` (and `AsyncKVStoring`) that keeps lifetimes (`ExpiringKVStoring`), on a table of a SQLite database
/// file, which any number of stores and processes share.
///
/// Each namespace's values are rows of one table, `forge_kv`, created by the first write: stores of different
/// namespaces on one database never see each other's values, and a store made with the database's file URL in another
/// process sees this one's writes.
///
/// ```swift
/// let store = SQLiteKVStore(fileURL: folder.appendingPathComponent("taskflow.sqlite"), namespace: "settings")
/// try store.set(TaskKeys.taskCount, value: 42)
/// ```
///
/// ## Keys and values
/// Any string is a key, kept in its canonical (NFC) form, so `"café"` is one key however it is typed; a value is the
/// JSON the library's other stores write, so a value reads back as it does from `DiskKVStore`.
///
/// ## Lifetimes
/// A value set with a lifetime (`set(_:value:expiresAfter:)`) keeps its expiration date in its row, in whole
/// milliseconds, and reads as missing from that instant on, by the clock of the store's ``expiry``, in every store and
/// process on the file, as `InMemoryKVStore`'s values do. Its row is deleted later: by a write of a store that finds a
/// reclaim due, or by `reclaimExpiredValues(limit:)` (an `ExpiryReaper` calls it), one `DELETE` of up to the limit's
/// rows, whose removal observers are told as other removals are.
///
/// ```swift
/// try store.set(SessionKeys.token, value: token, expiresAfter: .seconds(3600))
/// ```
///
/// ## Atomicity and durability
/// Every write is one SQLite statement, committed atomically: a reader, or a process that crashes mid-write, finds
/// the old value or the new one. What a power loss keeps is the store's `Durability`, as on the disk stores: with
/// `.atomic` (the default) a commit is not flushed (WAL with `synchronous = NORMAL`), so the latest writes may be
/// lost; with `.flushed` each commit flushes the log before it returns (`synchronous = FULL`). Stores of both kinds
/// may share a database.
///
/// ## Failures
/// A call that fails throws its operation's `KVStoreError` with a `FailureReason`: a full disk is `.outOfSpace`, a
/// database another connection keeps locked past ``SQLiteDatabase/busyTimeout`` is `.busy`, a file that is not a
/// SQLite database is `.other` with a sentence naming the path. `get` reads a failure as nil; `KVStoring/value(for:)`
/// throws it.
public struct SQLiteKVStore: Sendable {
    /// The database the store's rows live in.
    public var database: SQLiteDatabase { parts.database }
    /// The name of the group of keys this store holds; other namespaces in the database are never touched.
    public var namespace: String { parts.namespace }
    /// Whether each write is flushed to the device before it returns.
    public var durability: Durability { parts.durability }
    /// How the store keeps values with a lifetime: the clock that says when they expire, and how its writes reclaim
    /// the rows of those that have.
    public var expiry: KVExpiry? { parts.expiry }

    /// ``namespace`` as rows store it.
    var storedNamespace: Data { parts.storedNamespace }

    /// What the store is made of, in one object: a store one reference wide is kept in place where a transaction
    /// stages each write with its store, where a wider one would be copied into a box of its own for every write.
    private let parts: Parts

    /// The store's properties.
    private final class Parts: Sendable {
        let database: SQLiteDatabase
        let namespace: String
        let durability: Durability
        let expiry: KVExpiry?
        let storedNamespace: Data

        init(database: SQLiteDatabase, namespace: String, durability: Durability, expiry: KVExpiry?) {
            self.database = database
            self.namespace = namespace
            self.durability = durability
            self.expiry = expiry
            self.storedNamespace = SQLiteKVTable.stored(namespace)
        }
    }

    /// Creates a store for `namespace`'s rows in `database`.
    ///
    /// - Parameters:
    ///   - database: The database, which other stores may share.
    ///   - namespace: The group of keys of this store. Any string.
    ///   - durability: Whether each write is flushed to the device before it returns. Defaults to `.atomic`:
    ///     atomic, not flushed, like `UserDefaults`.
    ///   - expiry: The clock and reclaiming of values with a lifetime. Defaults to the system clock's; a test gives it
    ///     ForgeStorageTesting's `ManualExpiryClock`. Stores of one file should read the same clock.
    public init(
        database: SQLiteDatabase,
        namespace: String,
        durability: Durability = .atomic,
        expiry: KVExpiry = KVExpiry()
    ) {
        parts = Parts(database: database, namespace: namespace, durability: durability, expiry: expiry)
    }

    /// Creates a store for `namespace`'s rows in the database file `fileURL`, opened for this store alone.
    ///
    /// Stores made this way on one file share its data, but each opens its own connections: give stores in one
    /// process one ``SQLiteDatabase`` instead.
    ///
    /// - Parameters:
    ///   - fileURL: The database file, created with its folder when missing.
    ///   - namespace: The group of keys of this store. Any string.
    ///   - durability: Whether each write is flushed to the device before it returns. Defaults to `.atomic`.
    ///   - expiry: The clock and reclaiming of values with a lifetime. Defaults to the system clock's.
    public init(fileURL: URL, namespace: String, durability: Durability = .atomic, expiry: KVExpiry = KVExpiry()) {
        self.init(
            database: SQLiteDatabase(fileURL: fileURL),
            namespace: namespace,
            durability: durability,
            expiry: expiry
        )
    }
}

extension SQLiteKVStore: ExpiringKVStoring, KVBackend {
    /// The value stored under `name`, with its expiration date, or nil when nothing is; expired or not.
    ///
    /// - Throws: `KVStoreError/readFailed(key:underlying:)`.
    public func storedValue(named name: String) throws -> KVStoredValue? {
        let key = ReadCache.Key(namespace: storedNamespace, name: SQLiteKVTable.stored(name))
        return try perform(KVStoreError.readFailed(key:underlying:), name) {
            try database.cachedValue(for: key) { db in
                guard try database.holdsTable(SQLiteKVTable.name, in: db) else { return nil }
                return
                    try Row.fetchOne(
                        db.cachedStatement(sql: SQLiteKVTable.select),
                        arguments: [key.namespace, key.name]
                    )
                    .map { row in
                        // A row another program wrote may hold any type in either column: the value's bytes are read
                        // whatever they are, and a lifetime that is no integer fails to decode, as a typed error.
                        KVStoredValue(
                            json: SQLiteKVTable.json(of: row[0]),
                            expiresAtMilliseconds: try row.decode(Int64?.self, atIndex: 1)
                        )
                    }
            }
        }
    }

    /// Stores `value` under `name` with its expiration date in one statement, then tells the observers of the
    /// namespace's changes.
    ///
    /// - Throws: `KVStoreError/writeFailed(key:underlying:)`; the previous value is kept.
    public func store(_ value: KVStoredValue, named name: String) throws {
        try database.apply([storing(value.json, expiringAt: value.expiresAtMilliseconds, named: name)])
    }

    /// Stores `value` under `name` unless its row holds a value not expired at `date`, in one statement, and returns
    /// whether it did; the observers of the namespace are told when it did.
    ///
    /// The statement checks and writes under SQLite's write lock, so of connections that store one name at once, in
    /// this process or another, one stores and the others find its row.
    ///
    /// - Throws: `KVStoreError/writeFailed(key:underlying:)`; the row is kept.
    public func storeIfAbsent(_ value: KVStoredValue, named name: String, liveAt date: Date) throws -> Bool {
        let key = ReadCache.Key(namespace: storedNamespace, name: SQLiteKVTable.stored(name))
        let arguments: StatementArguments = [
            key.namespace, key.name, String(decoding: value.json, as: UTF8.self), value.expiresAtMilliseconds,
            SQLiteKVTable.milliseconds(expiredAt: date),
        ]
        let stored = try perform(KVStoreError.writeFailed(key:underlying:), name) {
            try database.write(durability, changing: [key], isOneStatement: true) { db in
                try db.cachedStatement(sql: SQLiteKVTable.insertIfAbsent).execute(arguments: arguments)
                return db.changesCount > 0
            }
        }
        if stored { database.changes.tell(namespace: storedNamespace, name: name) }
        return stored
    }

    /// Removes the value stored under `name`; succeeds when there is none.
    ///
    /// - Throws: `KVStoreError/removeFailed(key:underlying:)`.
    public func removeValue(named name: String) throws {
        try database.apply([removing(named: name)])
    }

    /// The names that hold a value in this namespace, in canonical (NFC) form.
    ///
    /// - Throws: `KVStoreError/listFailed(underlying:)`.
    public func storedNames() throws -> [String] {
        do {
            return try database.read { db -> [String] in
                guard try database.holdsTable(SQLiteKVTable.name, in: db) else { return [] }
                return try names(SQLiteKVTable.names, [storedNamespace], in: db)
            }
        } catch {
            throw KVStoreError.listFailed(underlying: FailureReason(sqlite: error, path: database.path))
        }
    }

    /// The names that hold a value not expired at `date` in this namespace, in canonical (NFC) form: one read
    /// transaction, which lists them without the check of expiry when no value of the namespace has a lifetime.
    ///
    /// - Throws: `KVStoreError/listFailed(underlying:)`.
    public func storedNames(liveAt date: Date) throws -> [String] {
        let milliseconds = SQLiteKVTable.milliseconds(expiredAt: date)
        do {
            // One read transaction: the search for lifetimes and the listing read one snapshot of the file.
            return try database.snapshot { db -> [String] in
                guard try database.holdsTable(SQLiteKVTable.name, in: db) else { return [] }
                // A namespace without a lifetime (one search of the index of lifetimes) is listed without the check.
                let hasLifetimes =
                    try Bool.fetchOne(
                        db.cachedStatement(sql: SQLiteKVTable.hasLifetimes),
                        arguments: [storedNamespace]
                    ) ?? true
                return
                    hasLifetimes
                    ? try names(SQLiteKVTable.liveNames, [storedNamespace, milliseconds], in: db)
                    : try names(SQLiteKVTable.names, [storedNamespace], in: db)
            }
        } catch {
            throw KVStoreError.listFailed(underlying: FailureReason(sqlite: error, path: database.path))
        }
    }

    /// The names the listing `sql` finds with `arguments` on `db`, each read from its blob straight into a string.
    private func names(_ sql: String, _ arguments: StatementArguments, in db: Database) throws -> [String] {
        // Appended from a cursor into one array: `fetchAll` into an array of `StoredName`, then mapped to strings, made
        // the listing of 10,000 names about a third slower.
        let cursor = try StoredName.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
        var names: [String] = []
        while let name = try cursor.next() { names.append(name.text) }
        return names
    }

    /// Whether `name` holds a value not expired at `date`: read through the database's cache of values, as `get`
    /// reads it, so that a `contains` after a read asks SQLite only whether the file changed; false when the read
    /// fails.
    public func hasValue(named name: String, liveAt date: Date) -> Bool {
        guard let value = try? storedValue(named: name) else { return false }
        return !value.isExpired(at: date)
    }

    /// Removes up to `limit` values of this namespace expired at `date`, in one statement, and returns their names
    /// (none when `limit` is 0 or less); the observers of the namespace are told of each, as of a removal.
    ///
    /// A value stored again since it expired has a new expiration date, or none, and stays.
    ///
    /// - Throws: `KVStoreError/listFailed(underlying:)` when the expired rows cannot be found and removed.
    public func removeExpiredValues(at date: Date, limit: Int) throws -> [String] {
        let milliseconds = SQLiteKVTable.milliseconds(expiredAt: date)
        let removed: [Data]
        do {
            removed = try database.write(durability, changing: nil, isOneStatement: true) { db in
                try Data.fetchAll(
                    db.cachedStatement(sql: SQLiteKVTable.deleteExpired),
                    arguments: [storedNamespace, storedNamespace, milliseconds, max(0, limit)]
                )
            }
        } catch {
            throw KVStoreError.listFailed(underlying: FailureReason(sqlite: error, path: database.path))
        }
        let names = removed.map(SQLiteKVTable.text(fromStored:))
        for name in names { database.changes.tell(namespace: storedNamespace, name: name) }
        return names
    }

    /// Removes every value of this namespace in one transaction; other namespaces are untouched.
    ///
    /// When the table holds no other namespace, SQLite empties it whole (its truncate optimisation), rather than
    /// removing each row: `removeAll` of 100,000 keys took 1.7x GRDB's `DELETE` of its whole table row by row.
    ///
    /// - Throws: `KVStoreError/removeAllFailed(underlying:)`.
    public func removeAll() throws {
        do {
            try database.write(durability, changing: nil) { db in
                let shared = try Bool.fetchOne(
                    db.cachedStatement(sql: SQLiteKVTable.holdsOtherNamespaces),
                    arguments: [storedNamespace]
                )
                if shared ?? true {
                    try db.cachedStatement(sql: SQLiteKVTable.deleteAll).execute(arguments: [storedNamespace])
                } else {
                    try db.execute(sql: SQLiteKVTable.deleteEveryRow)
                }
            }
        } catch {
            throw KVStoreError.removeAllFailed(underlying: FailureReason(sqlite: error, path: database.path))
        }
        database.changes.tell(namespace: storedNamespace, name: nil)
    }
}

extension SQLiteKVStore: AsyncExpiringKVStoring {}

extension SQLiteKVStore {
    /// The write that stores `json` under `name`, to expire `expiresAt` milliseconds after 1970 (nil: never): one
    /// statement, for `store(_:named:)` and for a transaction.
    func storing(_ json: Data, expiringAt expiresAt: Int64?, named name: String) -> SQLiteWrite {
        SQLiteWrite(
            durability: durability,
            action: .storeValue(row(name), json: String(decoding: json, as: UTF8.self), expiresAt: expiresAt)
        )
    }

    /// The write that removes the value under `name`: one statement, for `removeValue(named:)` and for a transaction.
    func removing(named name: String) -> SQLiteWrite {
        SQLiteWrite(durability: durability, action: .removeValue(row(name)))
    }

    /// The row of `name`.
    private func row(_ name: String) -> SQLiteWrite.ValueRow {
        SQLiteWrite.ValueRow(
            key: ReadCache.Key(namespace: storedNamespace, name: SQLiteKVTable.stored(name)),
            name: name
        )
    }

    /// Runs `body`, throwing any failure as the error `operation` makes for `name`: a `KVStoreError` as it is, any other
    /// with its reason.
    private func perform<Result>(
        _ operation: (String, FailureReason) -> KVStoreError,
        _ name: String,
        _ body: () throws -> Result
    ) throws -> Result {
        do {
            return try body()
        } catch {
            throw error as? KVStoreError ?? operation(name, FailureReason(sqlite: error, path: database.path))
        }
    }
}
