public import ForgeKVStore
public import Foundation
internal import Logging
public import PostgresNIO

/// An `AsyncKVStreaming` store on a PostgreSQL table, shared by every server that reaches the
/// database: one row per key, streams fed by `LISTEN`/`NOTIFY`.
///
/// The store uses a `PostgresClient` that the caller creates and runs; the store never runs or shuts it down:
///
/// ```swift
/// let client = PostgresClient(configuration: configuration)
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { await client.run() }
///     let store = PostgresKVStore(client: client, namespace: "taskflow")
///     try await store.set(TaskKeys.taskCount, value: 42)
///     for await count in store.stream(TaskKeys.taskCount) { print(count ?? 0) }
/// }
/// ```
///
/// ## The table
/// Each namespace's values live in rows of one table (``tableName``, `forge_kv` unless told), created with its
/// trigger on first use or by ``prepare()``:
/// `(row_hash bytea primary key, namespace text, key text, value json, version bigint, expires_at bigint)`, where
/// `row_hash` is the SHA-256 of the namespace and the key, set by a trigger (a key of any length fits the index), and a
/// hash index on `namespace` serves ``removeAll()`` and `keys()`. A value is the JSON the library's other stores
/// write, so it reads back the same; `version` counts a row's writes; `expires_at` is when a value with a lifetime
/// expires, in milliseconds since 1970 (null: never), and a partial index of it serves reclaims. A table made before
/// lifetimes were kept gets the column and the index when a store prepares it. Keys and namespaces
/// are stored in their canonical (NFC) form, so `"café"` is one key however it is typed, with `\` written `\\` and
/// NUL written `\0` (PostgreSQL's `text` cannot hold a NUL, and any string is a key). Stores on one table under
/// different namespaces share nothing.
///
/// ## Reads, writes and failures
/// Every call is one statement, so a read sees a whole value and concurrent writes of one key leave one of them
/// whole. A read fetches the key and the older names of its migrations together and resolves the migrations as the
/// other stores do. `remove(_:)` removes the key and its older names in one statement. A failure of the server
/// or of the connection throws the operation's `KVStoreError` case with a
/// `FailureReason` naming what failed, also from `get(_:)`. When no connection can be had within
/// ``connectionWait`` (the server is down, the pool is busy), the call fails rather than wait.
///
/// ## Streams
/// Every write, by any store or by SQL on the table, notifies the channel named after the table through its
/// trigger. A store listens on one connection of the client, shared by all its streams, and each stream re-reads
/// its key when notified of it. A stream reads its first value only once the store listens, so a stream made before
/// writes sees the last of them. After a dropped connection the store listens again and every stream re-reads its
/// key, so no change is missed, though values set and replaced while a stream was not listening are not all seen
/// (``stream(_:)`` says which values may fold into one).
/// The listening connection is taken from the client's pool while any stream of the store runs: give the client's
/// pool (`maximumConnections`) one connection more than its other calls need for each store that streams, or
/// those calls wait for a connection, up to `connectionWait`. On a server, add a ``PostgresStoreService`` of the client
/// to the `ServiceGroup`: it runs the listening connections, and on a graceful shutdown ends every stream, each after
/// one last read.
///
/// ## Transactions
/// The store is a `TransactionalKVStore`: every store on one `PostgresClient` (any table, any namespace) returns the
/// same runner, so their writes and removes can share one `StorageTransaction`, which
/// `try await StorageTransaction.run` applies in one database transaction on one connection. Another connection sees
/// all of it or none, and streams are notified of its writes when it commits, as of single writes, and of nothing
/// when it fails. The synchronous `StorageTransaction.run` throws `StorageTransactionError.commitNeedsAwait`.
///
/// ## Lifetimes
/// The store is an `AsyncExpiringKVStoring`: a value written with a lifetime
/// (`set(_:value:expiresAfter:)`, `set(_:value:lifetime:)`) reads as missing once it expires by the clock of
/// ``expiry``, in every call and every stream, in every process that shares the table, whether or not its row is
/// still there. Writes reclaim expired rows as ``expiry`` says, and `reclaimExpiredValues(limit:)` removes them on
/// request. Give every store on a namespace the same clock: the system's, unless a test says otherwise. A write that
/// finds a reclaim due runs it as a second statement, after its own; a write with an `.unchanged` lifetime reads the old
/// one first. A transaction writes the lifetime it staged (`set(_:value:expiresAfter:in:)`), or none.
public struct PostgresKVStore: Sendable {
    /// The name of the group of keys this store holds; other namespaces in the table are never touched.
    public let namespace: String
    /// The table the rows live in.
    public let tableName: String
    /// How long a call waits for a connection of the client before it fails.
    public let connectionWait: Duration
    /// How the store keeps values with a lifetime: the clock they expire by, and how its writes reclaim expired rows.
    ///
    /// Never nil: a store of this type always keeps lifetimes.
    public let expiry: KVExpiry?

    /// The client whose connections every call leases; the caller runs it.
    public let client: PostgresClient
    /// The table's SQL.
    let table: PostgresKVTable
    /// ``namespace`` as rows store it: see `StoredText.stored(_:)`.
    let storedNamespace: String
    /// Whether the table exists; shared by copies of the store.
    private let preparation = Preparation()
    /// The listening connection of this store's streams; shared by copies of the store.
    let notifications: NotificationHub
    /// The runner of the transactions this store's writes are part of: the one of every store on ``client``.
    let runner: PostgresTransactionRunner

    /// Creates a store for `namespace`'s rows of `tableName`, on `client`'s connections.
    ///
    /// Nothing is sent to the server until the first call.
    ///
    /// - Parameters:
    ///   - client: The client to lease connections from. The caller runs it (`client.run()`) for as long as the
    ///     store is used.
    ///   - namespace: The group of keys of this store. Any string.
    ///   - tableName: The table, created when missing: a plain identifier (`a`–`z`, `0`–`9`, `_`, at most 50
    ///     characters). Defaults to `forge_kv`.
    ///   - connectionWait: How long a call waits for a connection before it throws. Defaults to 10 seconds.
    ///   - expiry: The clock and reclaiming of values with a lifetime. Defaults to the system clock's; a test gives it
    ///     ForgeStorageTesting's `ManualExpiryClock`.
    public init(
        client: PostgresClient,
        namespace: String,
        tableName: String = "forge_kv",
        connectionWait: Duration = .seconds(10),
        expiry: KVExpiry = KVExpiry()
    ) {
        self.client = client
        self.namespace = namespace
        self.tableName = tableName
        self.connectionWait = connectionWait
        self.expiry = expiry
        self.table = PostgresKVTable(name: tableName)
        self.storedNamespace = StoredText.stored(namespace)
        self.notifications = NotificationHub(client: client, channel: table.channel)
        self.runner = PostgresTransactionRunner.of(client)
    }

    /// Creates the table, its index, functions and triggers when they are missing.
    ///
    /// When they are all there it only reads the catalog, so a database role that may only read and write the table's
    /// rows uses a table an administrator made. Every call does this once per store before its first statement; call it at start-up to find a problem (a
    /// missing permission, an unreachable server) early. Stores preparing at once, in any process, wait for one
    /// another. A failed preparation is tried again by the next call.
    ///
    /// - Throws: ``PostgresStoreError/prepareFailed(table:underlying:)``.
    public func prepare() async throws {
        try await preparation.run { [self] in
            try table.checkName()
            do {
                try await withConnection { [table] connection in try await table.createIfMissing(on: connection) }
            } catch {
                throw PostgresStoreError.prepareFailed(table: tableName, underlying: FailureReason(postgres: error))
            }
        }
    }
}

extension PostgresKVStore: AsyncKVStreaming, AsyncKVBackend, AsyncExpiringKVStoring {
    /// The values stored under `names`, each with when it expires, fetched in one statement, so that a key and the
    /// older names its migrations read are one consistent snapshot of the table.
    ///
    /// - Throws: `KVStoreError/readFailed(key:underlying:)` naming the first name.
    public func storedValues(named names: [String]) async throws -> [String: KVStoredValue] {
        var requested: [String: String] = [:]
        for name in names { requested[StoredText.stored(name)] = name }
        let stored = Array(requested.keys)
        let texts = try await perform(.read(names.first ?? "")) { [self] connection in
            let query: PostgresQuery = """
                SELECT key, value::text, expires_at FROM \(unescaped: quotedTable) WHERE row_hash = ANY(ARRAY(
                    SELECT \(unescaped: rowHashFunction)(\(storedNamespace), name) FROM unnest(\(stored)::text[]) AS name
                ))
                """
            var rows: [String: (text: String, expiresAt: Int64?)] = [:]
            for try await (name, text, expiresAt) in try await connection.query(query, logger: ConnectionLease.logger)
                .decode((String, String, Int64?).self)
            {
                rows[name] = (text, expiresAt)
            }
            return rows
        }
        var values: [String: KVStoredValue] = [:]
        for (storedName, row) in texts {
            guard let name = requested[storedName] else { continue }
            values[name] = KVStoredValue(json: Data(row.text.utf8), expiresAtMilliseconds: row.expiresAt)
        }
        return values
    }

    /// Stores `value` under `name`: inserts its row or replaces its value and its expiration date (none, for a value
    /// without a lifetime), in one statement.
    ///
    /// - Throws: `KVStoreError/writeFailed(key:underlying:)`; the previous value is kept.
    public func store(_ value: KVStoredValue, named name: String) async throws {
        try await perform(.write(name)) { [self] connection in
            try await store(json: value.json, expiresAt: value.expiresAtMilliseconds, named: name, on: connection)
        }
    }

    /// Stores `value` under `name` unless its row holds a value not expired at `date`, and returns whether it did: one
    /// statement, an insert whose conflict updates only a row that has expired, so that of servers that store one
    /// name at once exactly one stores and the others find its row.
    ///
    /// - Throws: `KVStoreError/writeFailed(key:underlying:)`; the row is kept.
    public func storeIfAbsent(_ value: KVStoredValue, named name: String, liveAt date: Date) async throws -> Bool {
        let text = String(decoding: value.json, as: UTF8.self)
        let storedName = StoredText.stored(name)
        let expiresAt = value.expiresAtMilliseconds
        let expired = Self.lastExpiredMillisecond(at: date)
        return try await perform(.write(name)) { [self] connection in
            let query: PostgresQuery = """
                INSERT INTO \(unescaped: quotedTable) AS stored (namespace, key, value, expires_at) \
                VALUES (\(storedNamespace), \(storedName), \(text)::json, \(expiresAt)) \
                ON CONFLICT (row_hash) DO UPDATE \
                SET value = excluded.value, expires_at = excluded.expires_at, version = stored.version + 1 \
                WHERE stored.expires_at IS NOT NULL AND stored.expires_at <= \(expired) \
                RETURNING true
                """
            var stored = false
            for try await _ in try await connection.query(query, logger: ConnectionLease.logger).decode(Bool.self) {
                stored = true
            }
            return stored
        }
    }

    /// Removes the values stored under `names` (a key's and its older names), in one statement.
    ///
    /// A remove cut short removes none. Succeeds when nothing is stored.
    ///
    /// - Throws: `KVStoreError/removeFailed(key:underlying:)` naming the last name, the key's own.
    public func removeValues(named names: [String]) async throws {
        try await perform(.remove(names.last ?? "")) { [self] connection in
            try await removeValues(named: names, on: connection)
        }
    }

    /// Removes every value of this store's namespace, in one statement; other namespaces are untouched.
    ///
    /// - Throws: `KVStoreError/removeAllFailed(underlying:)`.
    public func removeAll() async throws {
        try await perform(.removeAll) { [self] connection in
            let query: PostgresQuery = "DELETE FROM \(unescaped: quotedTable) WHERE namespace = \(storedNamespace)"
            _ = try await connection.query(query, logger: ConnectionLease.logger)
        }
    }

    /// The names that hold a value in this namespace, in canonical (NFC) form: rows written by other SQL may hold a
    /// key in another form.
    ///
    /// - Throws: `KVStoreError/listFailed(underlying:)`.
    public func storedNames() async throws -> [String] {
        let names = try await perform(.list) { [self] connection in
            let query: PostgresQuery = "SELECT key FROM \(unescaped: quotedTable) WHERE namespace = \(storedNamespace)"
            var names: [String] = []
            for try await name in try await connection.query(query, logger: ConnectionLease.logger).decode(String.self)
            {
                names.append(name)
            }
            return names
        }
        return names.map(StoredText.text(fromStored:))
    }

    /// The names of this namespace that hold a value not expired at `date`, asked of the server in one statement.
    ///
    /// - Throws: `KVStoreError/listFailed(underlying:)`.
    public func storedNames(liveAt date: Date) async throws -> [String] {
        let expired = Self.lastExpiredMillisecond(at: date)
        let names = try await perform(.list) { [self] connection in
            let query: PostgresQuery = """
                SELECT key FROM \(unescaped: quotedTable) WHERE namespace = \(storedNamespace) \
                AND (expires_at IS NULL OR expires_at > \(expired))
                """
            var names: [String] = []
            for try await name in try await connection.query(query, logger: ConnectionLease.logger).decode(String.self)
            {
                names.append(name)
            }
            return names
        }
        return names.map(StoredText.text(fromStored:))
    }

    /// Deletes up to `limit` rows of this namespace expired at `date`, in one statement, and returns their names;
    /// none when `limit` is 0 or less.
    ///
    /// A row found expired that another call stores a value in meanwhile is not deleted: the delete checks the
    /// expiration date of the row as it then is. The table's trigger notifies each deletion, so streams read again.
    ///
    /// - Throws: `KVStoreError/listFailed(underlying:)`.
    public func removeExpiredValues(at date: Date, limit: Int) async throws -> [String] {
        let expired = Self.lastExpiredMillisecond(at: date)
        let names = try await perform(.list) { [self] connection in
            let query: PostgresQuery = """
                DELETE FROM \(unescaped: quotedTable) WHERE ctid IN (
                    SELECT ctid FROM \(unescaped: quotedTable) \
                    WHERE md5(namespace) = md5(\(storedNamespace)) AND namespace = \(storedNamespace) \
                    AND expires_at <= \(expired) LIMIT \(max(0, limit))
                ) AND expires_at <= \(expired) RETURNING key
                """
            var names: [String] = []
            for try await name in try await connection.query(query, logger: ConnectionLease.logger).decode(String.self)
            {
                names.append(name)
            }
            return names
        }
        return names.map(StoredText.text(fromStored:))
    }
}

extension PostgresKVStore {
    /// The table's name quoted for SQL, so that a name SQL reserves (`user`) is a table name like any other.
    var quotedTable: String { TableName.quoted(tableName) }

    /// The clock values with a lifetime expire by: ``expiry``'s.
    var expiryClock: any ExpiryClock { expiry?.clock ?? SystemExpiryClock() }

    /// The table's function that hashes a namespace and a key into a row's `row_hash`, quoted for SQL.
    var rowHashFunction: String { "\"\(tableName)_row_hash\"" }

    /// Prepares the table, then runs `body` on a connection; any failure is thrown as `operation`'s error.
    func perform<Result: Sendable>(
        _ operation: StoreOperation,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        do {
            try await prepare()
            return try await withConnection(body)
        } catch {
            throw operation.failure(from: error)
        }
    }

    /// Runs `body` on a connection leased from the client, waiting at most ``connectionWait`` for it.
    func withConnection<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await ConnectionLease(client: client, wait: connectionWait).withConnection(body)
    }
}

extension PostgresKVStore {
    /// The last whole millisecond since 1970 at which a value has expired at `date`: the largest `m` with
    /// `Date(m / 1000) <= date`, so that the server compares `expires_at` exactly as `KVStoredValue.isExpired(at:)`
    /// compares the date read back from it.
    static func lastExpiredMillisecond(at date: Date) -> Int64 {
        func instant(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000) }
        var milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        // The product may be off by one ulp either way.
        while instant(milliseconds + 1) <= date { milliseconds += 1 }
        while instant(milliseconds) > date { milliseconds -= 1 }
        return milliseconds
    }

    /// Inserts the row of `name` holding `json` that expires at `expiresAt` (milliseconds since 1970; nil: never), or
    /// replaces its value and expiration date, in one statement on `connection`: the write of `store(_:named:)` and of
    /// a transaction's `.storeValue`.
    func store(json: Data, expiresAt: Int64?, named name: String, on connection: PostgresConnection) async throws {
        let text = String(decoding: json, as: UTF8.self)
        let storedName = StoredText.stored(name)
        let query: PostgresQuery = """
            INSERT INTO \(unescaped: quotedTable) AS stored (namespace, key, value, expires_at) \
            VALUES (\(storedNamespace), \(storedName), \(text)::json, \(expiresAt)) \
            ON CONFLICT (row_hash) DO UPDATE \
            SET value = excluded.value, expires_at = excluded.expires_at, version = stored.version + 1
            """
        _ = try await connection.query(query, logger: ConnectionLease.logger)
    }

    /// Deletes the rows of `names`, in one statement on `connection`: the removal of `removeValues(named:)` and of a
    /// transaction's `.removeValue`.
    func removeValues(named names: [String], on connection: PostgresConnection) async throws {
        let stored = names.map(StoredText.stored)
        let query: PostgresQuery = """
            DELETE FROM \(unescaped: quotedTable) WHERE row_hash = ANY(ARRAY(
                SELECT \(unescaped: rowHashFunction)(\(storedNamespace), name) FROM unnest(\(stored)::text[]) AS name
            ))
            """
        _ = try await connection.query(query, logger: ConnectionLease.logger)
    }
}

/// A store operation, which names the error its failure throws.
enum StoreOperation {
    case read(String)
    case write(String)
    case remove(String)
    case removeAll
    case list

    /// The error of this operation failing for `reason`.
    func error(_ reason: FailureReason) -> KVStoreError {
        switch self {
        case .read(let key): .readFailed(key: key, underlying: reason)
        case .write(let key): .writeFailed(key: key, underlying: reason)
        case .remove(let key): .removeFailed(key: key, underlying: reason)
        case .removeAll: .removeAllFailed(underlying: reason)
        case .list: .listFailed(underlying: reason)
        }
    }

    /// The error this operation throws when `error` stopped it: a `KVStoreError` as it is, anything else (the
    /// server's, the connection's, the preparation's) as this operation's error with its reason.
    func failure(from error: any Error) -> KVStoreError {
        if let error = error as? KVStoreError { return error }
        return self.error(FailureReason(postgres: error))
    }
}
