internal import ForgeKVStore
public import Foundation
internal import GRDB

/// One SQLite database file, opened once and shared by every store on it.
///
/// Any number of stores, of any namespaces, share one database: each keeps its rows apart by its namespace. The
/// database opens on the first call of a store (or on ``prepare()``), in WAL mode, with one connection that writes and
/// others that read, so reads run beside a write: the key-value stores' reads on one connection that also watches the
/// file for other connections' commits, the other reads on a few. Other processes, and other `SQLiteDatabase`s on the
/// same file, see every write once it returns. At shutdown, ``close()`` closes it.
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
/// ## Reading beside a writer
/// A read never waits for another connection's write lock: the first call of a database whose tables are there, a
/// read too, checks them without writing, and reads go on while another connection or process writes. A read of a
/// database whose tables are not made yet finds nothing stored; the first write (or ``prepare()``) makes them, and
/// upgrades tables of an older version, waiting for the lock as every write does (see Failures).
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
/// operation's error naming the path. A database another connection keeps locked is waited for by a write, up to
/// ``busyTimeout``, and then the call fails with the reason `.busy`; it never hangs. A failed opening is tried again
/// by the next call. After ``close()``, every call fails.
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
    /// The pool the stores' writes use, once open with the tables prepared; a read-only database has none.
    private let writer = Locked<DatabasePool?>(nil)
    /// The read-only pool the stores' reads use, and the connection that watches the file's data version, once open.
    private let reader = Locked<ReadConnections?>(nil)
    /// Whether the key-value and files tables are known to be there, in this version's shape.
    ///
    /// Then no read looks for them. Set once the writer prepared them, or the reader found them; never on a read-only
    /// database, whose tables another process may make later.
    private let tablesKnown = Locked(false)
    /// Whether ``close()`` was called: nothing opens again.
    private let closed = Locked(false)
    /// The values the stores read last, while no other connection has written.
    private let cache = Locked(ReadCache())
    /// Held while the writer opens, so that it opens once; never held by a call once it is open.
    private let openingWriter = Locked<Void>(())
    /// Held while the reader opens (which may open the writer, never the other way round); never held once it is open.
    private let openingReader = Locked<Void>(())
    /// The `synchronous` setting the writer connection has now; read and changed on the writer only.
    private let writerDurability = Locked<Durability>(.atomic)
    /// The observers of the stores' changes, and the watch of the file while there are any.
    let changes = DatabaseChanges()
    /// The writes waiting for the writer, committed together.
    let writes = GroupCommit()

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

    /// Opens the database and checks its tables (creating them when missing, or upgrading them, unless it is
    /// read-only), if that is not done yet.
    ///
    /// A store's first write does this; a store's read needs none of it (see Reading beside a writer). Call it at
    /// start-up to find a problem early.
    ///
    /// - Throws: ``SQLiteStoreError/openFailed(path:underlying:)``; its reason is `.notFound` when a read-only
    ///   database's file does not exist. ``SQLiteStoreError/closed(path:)`` after ``close()``.
    public func prepare() throws {
        do {
            _ = try pool()
        } catch is ClosedDatabase {
            throw SQLiteStoreError.closed(path: path)
        }
    }

    /// Closes the database's connections, once the calls running on them have returned; every later call of a store on
    /// it, and ``prepare()``, fails.
    ///
    /// Call it when the stores are done with, as a service's shutdown does, once the work that uses them (an
    /// `ExpiryReaper`, the tasks that read their streams) has ended: a store's call after it throws its operation's
    /// error (`KVStoreError.readFailed(key:underlying:)`…) whose reason is `.other` with a sentence naming the path and
    /// saying it is closed. Releasing the last reference to the database and its stores closes it too, at a time you
    /// do not choose. Calling it again does nothing; a database never opened closes at once.
    ///
    /// ```swift
    /// let database = SQLiteDatabase(fileURL: fileURL)
    /// // … on shutdown:
    /// try database.close()
    /// ```
    ///
    /// - Throws: ``SQLiteStoreError/closeFailed(path:underlying:)`` when SQLite could not close a connection; the
    ///   database is closed for the stores all the same.
    public func close() throws {
        let (reading, writing) = openingReader.withLock { _ in
            openingWriter.withLock { _ in
                closed.withLock { $0 = true }
                return (reader.withLock { $0.take() }, writer.withLock { $0.take() })
            }
        }
        do {
            try reading?.pool.close()
            try reading?.watcher.close()
            try writing?.close()
        } catch {
            throw SQLiteStoreError.closeFailed(path: path, underlying: FailureReason(sqlite: error, path: path))
        }
    }
}

extension SQLiteDatabase {
    /// The pool the stores' writes use, opening it (and preparing the tables) first when needed; on a read-only
    /// database, the reader's pool.
    ///
    /// - Throws: ``SQLiteStoreError/openFailed(path:underlying:)``, or ``ClosedDatabase`` after ``close()``.
    func pool() throws -> DatabasePool {
        if isReadOnly { return try readConnections().pool }
        if let pool = writer.withLock({ $0 }) { return pool }
        // The lock that serialises openings is held across the opening's I/O, by the first calls only: every call
        // after takes the pool above.
        return try openingWriter.withLock { _ in
            if let pool = writer.withLock({ $0 }) { return pool }
            try refuseCallsIfClosed()
            let pool = try openWriter()
            writer.withLock { $0 = pool }
            return pool
        }
    }

    /// The connections the stores' reads use, opening them first when needed.
    private func readConnections() throws -> ReadConnections {
        if let connections = reader.withLock({ $0 }) { return connections }
        return try openingReader.withLock { _ in
            if let connections = reader.withLock({ $0 }) { return connections }
            try refuseCallsIfClosed()
            let connections = try openReader()
            reader.withLock { $0 = connections }
            return connections
        }
    }

    /// Throws ``ClosedDatabase`` once ``close()`` was called.
    private func refuseCallsIfClosed() throws {
        if closed.withLock({ $0 }) { throw ClosedDatabase(path: path) }
    }

    /// The value of `key`: from the cache when no other connection wrote since it was read, else from `read`, whose
    /// result is then kept.
    ///
    /// Both run on the watching connection, in one call: a value the cache does not hold is read where the version was
    /// asked, without a second connection's turn.
    func cachedValue(
        for key: ReadCache.Key,
        read: (Database) throws -> KVStoredValue?
    ) throws -> KVStoredValue? {
        try readConnections().watcher
            .unsafeRead { db in
                let version = try Self.dataVersion(of: db)
                let (cached, generation) = cache.withLock { cache in
                    (cache.value(for: key, dataVersion: version), cache.generation)
                }
                if let cached { return cached }
                let value = try read(db)
                cache.withLock { $0.keep(value, for: key, readAt: generation) }
                return value
            }
    }

    /// Runs `body`, a write of the key-value rows `keys`, on the writer, committed with the writes that queue beside it.
    ///
    /// `keys` nil is a write of any row, empty one of files or secrets only. The writes of other callers that queue
    /// while a commit is in flight are committed together (see ``GroupCommit``): alone, one statement
    /// (`isOneStatement`) runs by itself and any other `body` in an immediate transaction; with others, in a savepoint
    /// of that transaction. `body` never begins a transaction itself.
    ///
    /// The writer's `synchronous` is set for the strongest durability of the commit first: `NORMAL` for `.atomic` (a
    /// commit is atomic, not flushed), `FULL` for `.flushed` (a commit flushes the log). No read keeps a value of `keys`
    /// from before it (see ``ReadCache``).
    ///
    /// With `alone`, the write is committed by itself on the caller's thread, as every write was before group commit:
    /// for a write whose statements call back (a rotation's progress, which the caller's thread is promised) or must
    /// commit with its own durability only.
    ///
    /// - Throws: ``ReadOnlyRefusal``, before anything is opened, when the database is read-only; what `body` threw, or
    ///   the failure of the commit.
    func write<Result>(
        _ durability: Durability,
        changing keys: [ReadCache.Key]?,
        isOneStatement: Bool = false,
        alone: Bool = false,
        _ body: (Database) throws -> Result
    ) throws -> Result {
        try refuseWritesIfReadOnly()
        let pool = try pool()
        return try withoutActuallyEscaping(body) { body in
            // The result is set by the leader's thread, while this caller waits in `run` for it.
            let result = ResultBox<Result>()
            let write = GroupCommit.Write(durability: durability, keys: keys, isOneStatement: isOneStatement) { db in
                result.value = try body(db)
            }
            if alone {
                if let failure = commit([write], on: pool).first ?? nil { throw failure }
            } else {
                try writes.run(write) { group in commit(group, on: pool) }
            }
            guard let value = result.value else {
                throw SQLiteStoreError.openFailed(
                    path: path,
                    underlying: .other("a write returned without running its statements (a defect of ForgeSQLite)")
                )
            }
            return value
        }
    }

    /// Commits `group` on the writer; the read cache forgets the keys it changed.
    private func commit(_ group: [GroupCommit.Write], on pool: DatabasePool) -> [(any Error)?] {
        let durability: Durability = group.contains { $0.durability == .flushed } ? .flushed : .atomic
        defer {
            cache.withLock { cache in
                for write in group { cache.forget(write.keys) }
            }
        }
        do {
            return try pool.writeWithoutTransaction { db in
                try writerDurability.withLock { current in
                    guard current != durability else { return }
                    try db.execute(
                        sql: durability == .flushed ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL"
                    )
                    current = durability
                }
                return GroupCommit.commit(group, on: db)
            }
        } catch {
            return group.map { _ in error }
        }
    }

    /// `PRAGMA data_version` of `db`: it changes when another connection commits.
    private static func dataVersion(of db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0
    }

    /// Runs `body` on a reader connection, outside a transaction: for one statement, which SQLite runs on one snapshot.
    func read<Result>(_ body: (Database) throws -> Result) throws -> Result {
        try readConnections().pool.unsafeRead(body)
    }

    /// Runs `body` in a read transaction on a reader connection: every statement of it reads one snapshot of the file.
    func snapshot<Result>(_ body: (Database) throws -> Result) throws -> Result {
        try readConnections().pool.read(body)
    }

    /// Whether the stores may read `table` on `db`; a table that is missing holds no row.
    ///
    /// Always, once the tables are known to be there; else when the table is there now (a database whose reader found
    /// none, a read-only one, which makes none).
    func holdsTable(_ table: String, in db: Database) throws -> Bool {
        if tablesKnown.withLock({ $0 }) { return true }
        if try db.tableExists(table) { return true }
        // Another connection may have made it since this one last looked: GRDB's schema cache of the watching
        // connection, which reads outside a pool, is not cleared for us (clearing it drops its statements too).
        db.clearSchemaCache()
        return try db.tableExists(table)
    }

    /// The connections' configuration: the busy timeout, and whether they only read.
    private func configuration(readOnly: Bool, label: String) -> Configuration {
        var configuration = Configuration()
        let (seconds, attoseconds) = busyTimeout.components
        configuration.busyMode = .timeout(TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18)
        configuration.readonly = readOnly
        configuration.label = label
        return configuration
    }

    /// Opens the writable pool (making the file and its folder), and prepares the tables in an immediate transaction,
    /// unless they are there in this version's shape: then nothing waits for another connection's write lock.
    private func openWriter() throws -> DatabasePool {
        do {
            try FileManager.default.createDirectory(
                at: fileURL.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            let pool = try openWritablePool()
            try pool.writeWithoutTransaction { [path] db in
                if (try? Self.tablesAreCurrent(in: db, path: path)) == true { return }
                try db.inTransaction(.immediate) {
                    try SQLiteKVTable.prepare(db, path: path)
                    try SQLiteFileTable.prepare(db, path: path)
                    return .commit
                }
            }
            tablesKnown.withLock { $0 = true }
            return pool
        } catch let error as CocoaError {
            throw SQLiteStoreError.openFailed(path: path, underlying: .other("its folder cannot be made: \(error)"))
        } catch {
            throw SQLiteStoreError.openFailed(path: path, underlying: FailureReason(sqlite: error, path: path))
        }
    }

    /// Opens the writable pool, again while another connection holds the lock that putting a new file in WAL mode
    /// takes, for up to ``busyTimeout``.
    ///
    /// SQLite answers GRDB's `PRAGMA journal_mode = WAL` with `SQLITE_BUSY` at once, without waiting as its busy
    /// handler waits for the locks of writes, when connections open a new file together: two servers starting on one
    /// new database failed their first write. A pause of a few milliseconds between attempts is what the busy handler
    /// would wait.
    private func openWritablePool() throws -> DatabasePool {
        let deadline = ContinuousClock.now + busyTimeout
        while true {
            do {
                return try DatabasePool(path: path, configuration: configuration(readOnly: false, label: "ForgeSQLite"))
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && ContinuousClock.now < deadline
            {
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
    }

    /// Opens the read-only pool and the watching connection, and checks the tables there, without writing.
    ///
    /// A read never waits for another connection's write. A writable database whose file is missing, or whose tables
    /// are of an older version, opens its writer first, to make or upgrade them.
    private func openReader() throws -> ReadConnections {
        do {
            if !FileManager.default.fileExists(atPath: path) {
                // SQLite's read-only opening of a missing file fails too, but says less.
                guard !isReadOnly else { throw SQLiteStoreError.openFailed(path: path, underlying: .notFound) }
                // No other connection can hold a lock on a file that is not there yet.
                _ = try pool()
            }
            // Every connection of a read-only pool, its writer too, is opened read-only (and the journal mode is left
            // as it is): SQLite refuses a write on them, and never checkpoints the log into the file on closing.
            let pool = try DatabasePool(path: path, configuration: configuration(readOnly: true, label: "ForgeSQLite"))
            let current: Bool
            do {
                current = try pool.read { [path] db in try Self.tablesAreCurrent(in: db, path: path) }
            } catch is SchemaProblem where !isReadOnly {
                // Tables of an older version are upgraded by the writer, which throws the problem of any others.
                _ = try self.pool()
                current = true
            }
            if current, !isReadOnly { tablesKnown.withLock { $0 = true } }
            var watching = configuration(readOnly: true, label: "ForgeSQLite.watcher")
            watching.readonly = true
            let watcher = try DatabaseQueue(path: path, configuration: watching)
            return ReadConnections(pool: pool, watcher: watcher)
        } catch let error as SQLiteStoreError {
            throw error
        } catch let error as ClosedDatabase {
            throw error
        } catch {
            throw SQLiteStoreError.openFailed(path: path, underlying: FailureReason(sqlite: error, path: path))
        }
    }

    /// Whether the key-value and files tables are both there, in this version's shape; false when either is missing.
    ///
    /// - Throws: ``SchemaProblem`` for tables of another shape or version; SQLite's error when the file is not a
    ///   database.
    private static func tablesAreCurrent(in db: Database, path: String) throws -> Bool {
        let keyValues = try SQLiteKVTable.check(db, path: path)
        return try SQLiteFileTable.check(db, path: path) && keyValues
    }
}

/// The connections a database's stores read on: a read-only pool, and one read-only connection that only asks for the
/// file's data version (which changes with the commits of every other connection, the writer's pool included).
private struct ReadConnections: Sendable {
    let pool: DatabasePool
    let watcher: DatabaseQueue
}

/// A call of a store of a database after ``SQLiteDatabase/close()``; stores throw it as their operation's error with
/// its ``reason``.
struct ClosedDatabase: Error {
    /// The database file's path.
    let path: String

    /// The reason a store's error gives.
    var reason: FailureReason {
        .other("the SQLite database '\(path)' was closed (SQLiteDatabase.close()): make a new SQLiteDatabase to use it")
    }
}

/// A value set on one thread and read on another after a lock both took: a write's result, set by the thread that leads
/// its commit and read by its caller once ``GroupCommit/run(_:commit:)`` returns.
private final class ResultBox<Value>: @unchecked Sendable {
    // Safe to share: set before the leader takes the queue's lock to record the outcome, read after the caller took it
    // to see the outcome.
    var value: Value?
}
