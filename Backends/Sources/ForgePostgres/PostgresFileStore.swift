public import ForgeFileStore
internal import Foundation
internal import Logging
public import PostgresNIO

/// An `AsyncFileStoring` store on PostgreSQL tables, shared by every server that reaches the
/// database: files by relative path, their content in chunks.
///
/// The store uses a `PostgresClient` that the caller creates and runs; the store never runs or shuts it down:
///
/// ```swift
/// let client = PostgresClient(configuration: configuration)
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { await client.run() }
///     let files = PostgresFileStore(client: client, namespace: "taskflow")
///     try await files.save(Data("hello".utf8), to: "notes/today.txt")
///     print(try await files.list(in: "notes"))  // ["notes/today.txt"]
/// }
/// ```
///
/// It is an `AsyncFileBackend`, so its `AsyncFileStoring` API is the library's, as `DiskFileStore`'s is: the same path
/// rules (paths kept in their canonical NFC spelling), the same listing order and the same `FileStoreError` for the
/// same situation, each naming the path as given. Below it, folders are implicit and a path is never a file and a
/// folder at once, as on disk.
///
/// ## The tables
/// Two tables, created on first use or by ``prepare()``: ``tableName`` (`forge_files` unless told) holds a row per
/// file, `(namespace_hash, namespace, path, size, content_id)`, and `<tableName>_chunks` holds the content,
/// `(content_id, chunk_index, data)`, in rows of 1 MiB. Namespaces are stored as the key-value store
/// stores them (canonical, `\` and NUL escaped) and found by their SHA-256, since a B-tree entry holds at most 2,704
/// bytes. Stores on one table under different namespaces share nothing. `list(in:)` and `totalSize()`
/// (``entryNames(in:)`` and ``storedSize()``) are computed by the server, over the range of paths under the folder.
///
/// ## Atomicity
/// A save is one transaction: it writes the new content under a new `content_id`, points the file's row at it and
/// deletes the old chunks. A reader sees the old content or the new, and a save cut short (a failure, a connection
/// killed, a process gone) leaves nothing of itself. A load reads the row and its chunks in one `REPEATABLE READ`
/// transaction, so a save that commits meanwhile never tears it. The checks that a path is not a folder, that no folder
/// on its way is a file, and that a file is there for `overwrite: false`, are serialised by a transaction-scoped
/// advisory lock per top folder of each namespace (all of `docs/…` in one, `notes/…` in another), so that of two
/// conflicting saves one sees the other's result; saves under different top folders never wait for each other.
/// `delete(_:)` (``removeFile(at:)``) takes the same lock, and `deleteAll()` (``removeAll()``) one on the whole
/// namespace.
///
/// ## Transactions
/// Its saves and deletes join a `StorageTransaction` with the writes of every ForgePostgres store on the same client,
/// whatever their table: a server's upload and the record that names it commit together, or neither does.
/// ```swift
/// try await StorageTransaction.run { transaction in
///     try transaction.save(upload, to: "uploads/\(id).pdf", in: files)
///     try transaction.set(UploadKeys.latest, value: id, in: settings)   // a PostgresKVStore on `client`
/// }
/// ```
///
/// ## Memory
/// A save holds the caller's `Data` and the one chunk being sent; a load builds one `Data`, its capacity reserved from
/// the stored size, and holds the one chunk being received. A file of any size costs one copy of it in memory.
///
/// ## Failures
/// A failure of the server or of the connection throws the operation's `FileStoreError` case with a
/// `FailureReason` naming what failed, `exists(_:)` included. When no connection can be had within
/// ``connectionWait`` (the server is down, the pool is busy), the call fails rather than wait. A row that other SQL
/// wrote and that the store cannot read (content that does not add up to its size, a path that breaks the rules)
/// fails the read with a typed error too.
public struct PostgresFileStore: Sendable {
    /// The name of the group of files this store holds; other namespaces in the table are never touched.
    public let namespace: String
    /// The table of the files' rows; their content lives in `<tableName>_chunks`.
    public let tableName: String
    /// How long a call waits for a connection of the client before it fails.
    public let connectionWait: Duration
    /// The client whose connections every call leases; the caller runs it.
    public let client: PostgresClient

    /// The size, in bytes, of the rows content is stored in: 1 MiB.
    static let chunkSize = 1 << 20

    /// The tables' SQL names.
    let table: PostgresFileTable
    /// ``namespace`` as rows store it: see `StoredText`.
    let storedNamespace: String
    /// Whether the tables exist; shared by copies of the store.
    private let preparation = Preparation()

    /// Creates a store for `namespace`'s files in `tableName`, on `client`'s connections.
    ///
    /// Nothing is sent to the server until the first call.
    ///
    /// - Parameters:
    ///   - client: The client to lease connections from. The caller runs it (`client.run()`) for as long as the
    ///     store is used.
    ///   - namespace: The group of files of this store. Any string.
    ///   - tableName: The table of the files, created with its chunk table when missing: a plain identifier (`a`–`z`,
    ///     `0`–`9`, `_`, at most 50 characters). Defaults to `forge_files`.
    ///   - connectionWait: How long a call waits for a connection before it throws. Defaults to 10 seconds.
    public init(
        client: PostgresClient,
        namespace: String,
        tableName: String = "forge_files",
        connectionWait: Duration = .seconds(10)
    ) {
        self.client = client
        self.namespace = namespace
        self.tableName = tableName
        self.connectionWait = connectionWait
        self.table = PostgresFileTable(name: tableName)
        self.storedNamespace = StoredText.stored(namespace)
    }

    /// Creates the two tables when they are missing.
    ///
    /// When they are there it only reads the catalog, so a database role that may only read and write rows uses
    /// tables an administrator made. Every call does this once per store before its first statement; call it at
    /// start-up to find a problem (a missing permission, an unreachable server) early. Stores preparing at once, in
    /// any process, wait for one another. A failed preparation is tried again by the next call.
    ///
    /// - Throws: ``PostgresStoreError/prepareFailed(table:underlying:)``.
    public func prepare() async throws {
        try await preparation.run { [self] in
            try table.checkName()
            do {
                try await ConnectionLease(client: client, wait: connectionWait)
                    .withConnection { [table] connection in try await table.createIfMissing(on: connection) }
            } catch {
                throw PostgresStoreError.prepareFailed(table: tableName, underlying: FailureReason(postgres: error))
            }
        }
    }
}

extension PostgresFileStore: AsyncFileStoring, AsyncFileBackend {
    /// The contents of the file at `path`, read chunk by chunk in one snapshot; nil when no file is stored there.
    ///
    /// - Throws: `FileStoreError/readFailed(path:reason:)`, also when `path` is a folder and when the stored content
    ///   does not add up to its size.
    public func contents(at path: StoredFilePath) async throws -> Data? {
        try await perform(.read(path.string)) { [self] connection in
            try await inTransaction(connection) { connection -> Data? in
                _ = try await connection.query(
                    "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY",
                    logger: ConnectionLease.logger
                )
                guard let stored = try await storedContent(of: path, on: connection) else {
                    if try await isFolder(path, on: connection) {
                        throw FileStoreError.readFailed(path: path.string, reason: .isFolder)
                    }
                    return nil
                }
                return try await readChunks(of: stored, file: path, on: connection)
            }
        }
    }

    /// Stores `data` at `path` in one transaction.
    ///
    /// - Throws: `FileStoreError/alreadyExists(path:)` or `FileStoreError/writeFailed(path:reason:)`; what was
    ///   stored at `path` is kept.
    public func write(_ data: Data, at path: StoredFilePath, replacing: Bool) async throws {
        try await perform(.write(path.string)) { [self] connection in
            try await inTransaction(connection) { connection in
                try await write(data, at: path, replacing: replacing, on: connection)
            }
        }
    }

    /// Stores `data` at `path` in the transaction open on `connection`: a save alone, or a `StorageTransaction`'s.
    ///
    /// - Throws: `FileStoreError/alreadyExists(path:)`, `FileStoreError/writeFailed(path:reason:)` with `parentIsFile`
    ///   or `isFolder`, or what the server throws.
    func write(_ data: Data, at path: StoredFilePath, replacing: Bool, on connection: PostgresConnection) async throws {
        try await lockTopFolder(of: path, on: connection)
        let found = try await conflicts(of: path, on: connection)
        if found.parentIsFile { throw FileStoreError.writeFailed(path: path.string, reason: .parentIsFile) }
        if found.isFolder { throw FileStoreError.writeFailed(path: path.string, reason: .isFolder) }
        if found.oldContent != nil, !replacing { throw FileStoreError.alreadyExists(path: path.string) }
        let content = UUID()
        try await writeChunks(of: data, as: content, on: connection)
        try await pointRow(of: path, at: content, size: data.count, on: connection)
        if let old = found.oldContent { try await deleteChunks(of: old, on: connection) }
    }

    /// Removes the file at `path` and its content in one statement; false when no file is stored there.
    ///
    /// - Throws: `FileStoreError/deleteFailed(path:reason:)`, also when `path` is a folder.
    public func removeFile(at path: StoredFilePath) async throws -> Bool {
        try await perform(.delete(path.string)) { [self] connection in
            try await inTransaction(connection) { connection in
                try await removeFile(at: path, on: connection)
            }
        }
    }

    /// Removes the file at `path` and its content in the transaction open on `connection`; false when no file is
    /// stored there.
    ///
    /// - Throws: `FileStoreError/deleteFailed(path:reason:)` with `isFolder`, or what the server throws.
    func removeFile(at path: StoredFilePath, on connection: PostgresConnection) async throws -> Bool {
        try await lockTopFolder(of: path, on: connection)
        let query: PostgresQuery = """
            WITH gone AS (
                DELETE FROM \(unescaped: table.files) WHERE \
                namespace_hash = sha256(convert_to(\(storedNamespace), 'UTF8')) \
                AND namespace = \(storedNamespace) AND path = \(path.string) RETURNING content_id
            ), chunks_gone AS (
                DELETE FROM \(unescaped: table.chunks) WHERE content_id IN (SELECT content_id FROM gone)
            )
            SELECT count(*) FROM gone
            """
        if try await single(Int64.self, query, on: connection) ?? 0 > 0 { return true }
        if try await isFolder(path, on: connection) {
            throw FileStoreError.deleteFailed(path: path.string, reason: .isFolder)
        }
        return false
    }

    /// Whether a file is stored at `path`.
    ///
    /// - Throws: `FileStoreError/readFailed(path:reason:)` when the server cannot be read.
    public func hasFile(at path: StoredFilePath) async throws -> Bool {
        try await perform(.read(path.string)) { [self] connection in
            let query: PostgresQuery = """
                SELECT EXISTS (SELECT 1 FROM \(unescaped: table.files) WHERE \
                namespace_hash = sha256(convert_to(\(storedNamespace), 'UTF8')) AND namespace = \(storedNamespace) \
                AND path = \(path.string))
                """
            return try await single(Bool.self, query, on: connection) ?? false
        }
    }

    /// The size of the file at `path` and the time of its last save, by the server's clock, in one statement; nil
    /// when no file is stored there.
    ///
    /// - Throws: `FileStoreError/readFailed(path:reason:)` when the server cannot be read.
    public func storedFileInfo(at path: StoredFilePath) async throws -> StoredFileInfo? {
        try await perform(.read(path.string)) { [self] connection in
            let query: PostgresQuery = """
                SELECT size, modified FROM \(unescaped: table.files) WHERE \
                namespace_hash = sha256(convert_to(\(storedNamespace), 'UTF8')) AND namespace = \(storedNamespace) \
                AND path = \(path.string)
                """
            let rows = try await connection.query(query, logger: ConnectionLease.logger)
            for try await (size, modified) in rows.decode((Int64, Date).self) {
                return StoredFileInfo(path: path.string, size: Int(size), modificationDate: modified)
            }
            return nil
        }
    }

    /// The names of the files and sub-folders directly in `folder`, found by the server over the range of paths
    /// under it; sub-folders end in `/`.
    ///
    /// - Throws: `FileStoreError/listFailed(path:reason:)`, also when the table holds a path under `folder` that
    ///   breaks the path rules.
    public func entryNames(in folder: StoredFilePath) async throws -> [String] {
        let entries = try await perform(.list(folder.string)) { [self] connection in
            var entries: [String] = []
            let rows = try await connection.query(listQuery(of: folder), logger: ConnectionLease.logger)
            for try await entry in rows.decode(String.self) { entries.append(entry) }
            return entries
        }
        let prefixLength = folder.string.isEmpty ? 0 : folder.string.utf8.count + 1
        return try entries.map { entry in
            let name = entry.hasSuffix("/") ? String(entry.dropLast()) : entry
            guard (try? StoredFilePath(validating: name))?.string == name else {
                throw FileStoreError.listFailed(
                    path: folder.string,
                    reason: .other("the table holds a path that is not valid under '\(folder.string)': '\(entry)'")
                )
            }
            return String(decoding: entry.utf8.dropFirst(prefixLength), as: UTF8.self)
        }
    }

    /// Removes every file of this namespace and its content, in one statement; other namespaces are untouched.
    ///
    /// - Throws: `FileStoreError/deleteFailed(path:reason:)` with an empty path.
    public func removeAll() async throws {
        try await perform(.deleteAll) { [self] connection in
            try await inTransaction(connection) { connection in
                let lock: PostgresQuery = "SELECT pg_advisory_xact_lock(hashtextextended(\(namespaceLockKey), 0))"
                _ = try await connection.query(lock, logger: ConnectionLease.logger)
                let query: PostgresQuery = """
                    WITH gone AS (
                        DELETE FROM \(unescaped: table.files) WHERE \
                        namespace_hash = sha256(convert_to(\(storedNamespace), 'UTF8')) \
                        AND namespace = \(storedNamespace) RETURNING content_id
                    )
                    DELETE FROM \(unescaped: table.chunks) WHERE content_id IN (SELECT content_id FROM gone)
                    """
                _ = try await connection.query(query, logger: ConnectionLease.logger)
            }
        }
    }

    /// The sum of the sizes of this namespace's files, computed by the server.
    ///
    /// - Throws: `FileStoreError/listFailed(path:reason:)` with an empty path.
    public func storedSize() async throws -> Int {
        let total = try await perform(.list("")) { [self] connection in
            let query: PostgresQuery = """
                SELECT coalesce(sum(size), 0)::bigint FROM \(unescaped: table.files) WHERE \
                namespace_hash = sha256(convert_to(\(storedNamespace), 'UTF8')) AND namespace = \(storedNamespace)
                """
            return try await single(Int64.self, query, on: connection) ?? 0
        }
        return Int(total)
    }
}
