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
/// ## Failures
/// A file that is not a SQLite database, or a database with a table of the stores in a shape this version does not
/// know, is never changed: every call fails with its operation's error naming the path. A database another
/// connection keeps locked is waited for, up to ``busyTimeout``, and then the call fails; it never hangs. A failed
/// opening is tried again by the next call.
public final class SQLiteDatabase: Sendable {
    /// The database file; created, with its folder, when missing.
    public let fileURL: URL
    /// How long a write waits for another connection's lock on the database before it fails.
    public let busyTimeout: Duration

    /// The file's path, as errors name it.
    let path: String
    /// The pool, once open.
    private let opened = Locked<DatabasePool?>(nil)
    /// Held while the database opens, so that it opens once; never held by a call once the database is open.
    private let opening = Locked<Void>(())
    /// The `synchronous` setting the writer connection has now; read and changed on the writer only.
    private let writerDurability = Locked<Durability>(.atomic)

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
        if let pool = opened.withLock({ $0 }) { return pool }
        // The lock that serialises openings is held across the opening's I/O, by the first calls only: every call
        // after takes the pool above.
        return try opening.withLock { _ in
            if let pool = opened.withLock({ $0 }) { return pool }
            let pool = try open()
            opened.withLock { $0 = pool }
            return pool
        }
    }

    /// Runs `body` on the writer connection, outside a transaction, with `synchronous` set for `durability`: `NORMAL`
    /// for `.atomic` (a commit is atomic, not flushed), `FULL` for `.flushed` (a commit flushes the log).
    func write<Result>(_ durability: Durability, _ body: (Database) throws -> Result) throws -> Result {
        try pool()
            .writeWithoutTransaction { db in
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

    /// Opens the pool and prepares the tables.
    private func open() throws -> DatabasePool {
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
                    return .commit
                }
            }
            return pool
        } catch let error as CocoaError {
            throw SQLiteStoreError.openFailed(path: path, underlying: .other("its folder cannot be made: \(error)"))
        } catch {
            throw SQLiteStoreError.openFailed(path: path, underlying: FailureReason(sqlite: error, path: path))
        }
    }
}
