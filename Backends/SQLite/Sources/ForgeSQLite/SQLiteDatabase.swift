internal import ForgeKVStore
public import Foundation
internal import GRDB

/// One SQLite database file, opened once and shared by every store on it.
///
/// Any number of stores, of any namespaces, share one database: each keeps its rows apart by its namespace. The
/// database opens on the first call of a store (or on ``prepare()``), in WAL mode, with one connection that writes and
/// a few that read, so reads run beside a write. Other processes, and other `SQLiteDatabase`s on the same file, see
/// every write once it returns.
///
/// ```swift
/// let database = SQLiteDatabase(fileURL: folder.appendingPathComponent("taskflow.sqlite"))
/// let settings = SQLiteKVStore(database: database, namespace: "settings")
/// let cache = SQLiteKVStore(database: database, namespace: "cache")
/// try settings.set(TaskKeys.taskCount, value: 42)
/// ```
///
/// ## Transactions
/// The stores of one database, of any kinds and namespaces, share transactions: `StorageTransaction.run` applies the
/// writes its body stages as one SQLite transaction, all or none (see ``commit(_:)``). Stores of another
/// `SQLiteDatabase`, even on the same file, cannot join them.
///
/// ## Reading without writing
/// `SQLiteDatabase(fileURL:readOnly: true)` opens the file for reading only, as a tool that inspects it or a process
/// that only shows what another one stores would: it never creates the file, its folder or a table, and never changes
/// a byte of the database. It checks the tables of the stores that are there (one in a shape this version does not
/// know, or of a newer version, fails every call, as under Failures), and a table that is missing holds nothing: its
/// stores read no value, no file and no secret. Every write of every store on it fails with the store's error and
/// changes nothing (see ``isReadOnly``). SQLite may still make the shared-memory file (`-shm`) and an empty log
/// (`-wal`) beside a database that no connection has open, as any reader of a database in WAL mode does.
///
/// ```swift
/// let database = SQLiteDatabase(fileURL: fileURL, readOnly: true)
/// print(try SQLiteKVStore.namespaces(database: database))
/// ```
///
/// ## Failures
/// A file that is not a SQLite database is never changed, and a SQLite database with a table of the stores in a shape
/// this version does not know keeps its tables and rows as they are (it is left in WAL mode): every call fails with its
/// operation's error naming the path. A database another connection keeps locked is waited for, up to
/// ``busyTimeout``, and then the call fails with the reason `.busy`; it never hangs. A failed opening is tried again
/// by the next call.
public final class SQLiteDatabase: Sendable {
    /// The database file; created, with its folder, when missing, unless the database is read-only.
    public let fileURL: URL
    /// How long a write waits for another connection's lock on the database before it fails.
    public let busyTimeout: Duration
    /// Whether the database is only read: nothing creates the file or a table, and every write of a store on it fails.
    ///
    /// A write fails with its store's error (`KVStoreError.writeFailed(key:underlying:)`,
    /// `FileStoreError.writeFailed(path:reason:)`, `CryptStoreError.removeFailed(key:underlying:)`…) whose reason is
    /// `.other` with a sentence naming the path and saying it is open read-only: not `.readOnlyVolume` nor
    /// `.permissionDenied`, since the volume and the file may be writable. A `StorageTransaction` of its stores fails
    /// with the error of its first write.
    public let isReadOnly: Bool

    /// The file's path, as errors name it.
    let path: String
    /// The pool and the connection that watches the file's data version, once open.
    private let opened = Locked<Connections?>(nil)
    /// The values the stores read last, while no other connection has written.
    private let cache = Locked(ReadCache())
    /// Held while the database opens, so that it opens once; never held by a call once the database is open.
    private let opening = Locked<Void>(())
    /// The `synchronous` setting the writer connection has now; read and changed on the writer only.
    private let writerDurability = Locked<Durability>(.atomic)
    /// The observers of the stores' changes, and the watch of the file while there are any.
    let changes = DatabaseChanges()

    /// Creates the database of `fileURL`; nothing is opened until the first call.
    ///
    /// - Parameters:
    ///   - fileURL: The database file, created with its folder when missing unless `readOnly`.
    ///   - busyTimeout: How long a write waits for a lock another connection holds before it fails. Defaults to 5
    ///     seconds.
    ///   - readOnly: Whether the database is only read (see ``isReadOnly``): the file must exist, and nothing is
    ///     created or written. Defaults to false.
    public init(fileURL: URL, busyTimeout: Duration = .seconds(5), readOnly: Bool = false) {
        self.fileURL = fileURL
        self.busyTimeout = busyTimeout
        self.isReadOnly = readOnly
        self.path = fileURL.path
    }

    /// Opens the database and checks its tables (creating them when missing, unless it is read-only), if that is not
    /// done yet.
    ///
    /// Every call of a store does this first; call it at start-up to find a problem early.
    ///
    /// - Throws: ``SQLiteStoreError/openFailed(path:underlying:)``; its reason is `.notFound` when a read-only
    ///   database's file does not exist.
    public func prepare() throws {
        _ = try pool()
    }
}

extension SQLiteDatabase {
    /// The open pool, opening it first when needed.
    ///
    /// - Throws: ``SQLiteStoreError/openFailed(path:underlying:)``.
    func pool() throws -> DatabasePool {
        try connections().pool
    }

    /// The open connections, opening them first when needed.
    private func connections() throws -> Connections {
        if let connections = opened.withLock({ $0 }) { return connections }
        // The lock that serialises openings is held across the opening's I/O, by the first calls only: every call
        // after takes the connections above.
        return try opening.withLock { _ in
            if let connections = opened.withLock({ $0 }) { return connections }
            let connections = try open()
            opened.withLock { $0 = connections }
            return connections
        }
    }

    /// The value of `key`: from the cache when no other connection wrote since it was read, else from `read`, whose
    /// result is then kept.
    func cachedValue(
        for key: ReadCache.Key,
        read: (Database) throws -> KVStoredValue?
    ) throws -> KVStoredValue? {
        let connections = try connections()
        let version = try connections.watcher.unsafeRead { db in
            try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0
        }
        let (cached, generation) = cache.withLock { cache in
            (cache.value(for: key, dataVersion: version), cache.generation)
        }
        if let cached { return cached }
        let value = try connections.pool.unsafeRead(read)
        cache.withLock { $0.keep(value, for: key, readAt: generation) }
        return value
    }

    /// Runs `body`, a write of `key` (of every key when nil), on the writer connection, outside a transaction.
    ///
    /// The writer's `synchronous` is set for `durability` first: `NORMAL` for `.atomic` (a commit is atomic, not
    /// flushed), `FULL` for `.flushed` (a commit flushes the log). No read keeps a value of `key` from before it.
    ///
    /// - Throws: ``ReadOnlyRefusal``, before anything is opened, when the database is read-only.
    func write<Result>(
        _ durability: Durability,
        changing key: ReadCache.Key?,
        _ body: (Database) throws -> Result
    ) throws -> Result {
        try refuseWritesIfReadOnly()
        let pool = try pool()
        defer { cache.withLock { $0.forget(key) } }
        return try pool.writeWithoutTransaction { db in
            try writerDurability.withLock { current in
                guard current != durability else { return }
                try db.execute(
                    sql: durability == .flushed ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL"
                )
                current = durability
            }
            return try body(db)
        }
    }

    /// Runs `body` on a reader connection, outside a transaction: for one statement, which SQLite runs on one snapshot.
    func read<Result>(_ body: (Database) throws -> Result) throws -> Result {
        try pool().unsafeRead(body)
    }

    /// Opens the pool and the watching connection, and prepares the tables; a read-only database only checks those
    /// there.
    private func open() throws -> Connections {
        do {
            if isReadOnly {
                // SQLite's read-only opening of a missing file fails too, but says less.
                guard FileManager.default.fileExists(atPath: path) else {
                    throw SQLiteStoreError.openFailed(path: path, underlying: .notFound)
                }
            } else {
                try FileManager.default.createDirectory(
                    at: fileURL.deletingLastPathComponent(),
                    withIntermediateDirectories: true
                )
            }
            var configuration = Configuration()
            let (seconds, attoseconds) = busyTimeout.components
            configuration.busyMode = .timeout(TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18)
            configuration.label = "ForgeSQLite"
            // Every connection of a read-only pool, its writer too, is opened read-only (and the journal mode is left
            // as it is): SQLite refuses a write on them, and never checkpoints the log into the file on closing.
            configuration.readonly = isReadOnly
            let pool = try DatabasePool(path: path, configuration: configuration)
            if isReadOnly {
                try pool.read { [path] db in
                    try SQLiteKVTable.check(db, path: path)
                    try SQLiteFileTable.check(db, path: path)
                }
            } else {
                try pool.writeWithoutTransaction { [path] db in
                    try db.inTransaction(.immediate) {
                        try SQLiteKVTable.prepare(db, path: path)
                        try SQLiteFileTable.prepare(db, path: path)
                        return .commit
                    }
                }
            }
            var watching = Configuration()
            watching.readonly = true
            watching.label = "ForgeSQLite.watcher"
            let watcher = try DatabaseQueue(path: path, configuration: watching)
            return Connections(pool: pool, watcher: watcher)
        } catch let error as SQLiteStoreError {
            throw error
        } catch let error as CocoaError {
            throw SQLiteStoreError.openFailed(path: path, underlying: .other("its folder cannot be made: \(error)"))
        } catch {
            throw SQLiteStoreError.openFailed(path: path, underlying: FailureReason(sqlite: error, path: path))
        }
    }
}

/// A database's connections: the pool every statement on the tables runs on, and one read-only connection that only
/// asks for the file's data version (the pool's writer, which the stores' writes use, is another connection, so the
/// version changes with their commits too).
private struct Connections: Sendable {
    let pool: DatabasePool
    let watcher: DatabaseQueue
}
