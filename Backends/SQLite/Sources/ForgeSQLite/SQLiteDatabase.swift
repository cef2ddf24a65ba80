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
/// ## Failures
/// A file that is not a SQLite database is never changed, and a SQLite database with a table of the stores in a shape
/// this version does not know keeps its tables and rows as they are (it is left in WAL mode): every call fails with its
/// operation's error naming the path. A database another connection keeps locked is waited for, up to
/// ``busyTimeout``, and then the call fails with the reason `.busy`; it never hangs. A failed opening is tried again
/// by the next call.
public final class SQLiteDatabase: Sendable {
    /// The database file; created, with its folder, when missing.
    public let fileURL: URL
    /// How long a write waits for another connection's lock on the database before it fails.
    public let busyTimeout: Duration

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
    ///   - fileURL: The database file, created with its folder when missing.
    ///   - busyTimeout: How long a write waits for a lock another connection holds before it fails. Defaults to 5
    ///     seconds.
    public init(fileURL: URL, busyTimeout: Duration = .seconds(5)) {
        self.fileURL = fileURL
        self.busyTimeout = busyTimeout
        self.path = fileURL.path
    }

    /// Opens the database and checks its tables (creating them when missing), if that is not done yet.
    ///
    /// Every call of a store does this first; call it at start-up to find a problem early.
    ///
    /// - Throws: ``SQLiteStoreError/openFailed(path:underlying:)``.
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
    func write<Result>(
        _ durability: Durability,
        changing key: ReadCache.Key?,
        _ body: (Database) throws -> Result
    ) throws -> Result {
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

    /// Opens the pool and the watching connection, and prepares the tables.
    private func open() throws -> Connections {
        do {
            try FileManager.default.createDirectory(
                at: fileURL.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            var configuration = Configuration()
            let (seconds, attoseconds) = busyTimeout.components
            configuration.busyMode = .timeout(TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18)
            configuration.label = "ForgeSQLite"
            let pool = try DatabasePool(path: path, configuration: configuration)
            try pool.writeWithoutTransaction { [path] db in
                try db.inTransaction(.immediate) {
                    try SQLiteKVTable.prepare(db, path: path)
                    try SQLiteFileTable.prepare(db, path: path)
                    return .commit
                }
            }
            var watching = Configuration()
            watching.readonly = true
            watching.label = "ForgeSQLite.watcher"
            let watcher = try DatabaseQueue(path: path, configuration: watching)
            return Connections(pool: pool, watcher: watcher)
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
