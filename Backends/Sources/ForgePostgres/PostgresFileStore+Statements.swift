internal import ForgeFileStore
internal import Foundation
internal import PostgresNIO

extension PostgresFileStore {
    /// What a save found at and around its path, under its lock.
    struct Conflicts: Sendable {
        /// A folder on the way to the path is a file.
        let parentIsFile: Bool
        /// The path is a folder: files are stored beneath it.
        let isFolder: Bool
        /// The content of the file stored at the path, nil when none is.
        let oldContent: UUID?
    }

    /// A stored file's content, checked to add up: its chunks are numbered from 0 and their bytes make its size.
    struct StoredContent: Sendable {
        /// The content's chunks' `content_id`.
        let id: UUID
        /// The file's size in bytes.
        let size: Int
        /// How many chunks hold the content.
        let chunkCount: Int
    }

    /// Prepares the tables, then runs `body` on a connection; a failure that is not already a `FileStoreError` is
    /// thrown as `operation`'s error.
    func perform<Result: Sendable>(
        _ operation: FileOperation,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        do {
            try await prepare()
            return try await ConnectionLease(client: client, wait: connectionWait).withConnection(body)
        } catch let error as FileStoreError {
            throw error
        } catch {
            throw operation.error(FailureReason(postgres: error))
        }
    }

    /// Runs `body` in a transaction on `connection`: committed when it returns, rolled back when it throws (see
    /// `ConnectionLease.transaction(on:committing:_:)`, which never sends a `ROLLBACK` on a connection the server ended).
    ///
    /// - Throws: What `body` throws, as it is, or the failure of `BEGIN` or `COMMIT`.
    func inTransaction<Result: Sendable>(
        _ connection: PostgresConnection,
        _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> Result {
        try await ConnectionLease.transaction(on: connection, body)
    }

    /// The first column of the first row `query` returns, or nil when it returns none.
    func single<Value: PostgresDecodable & Sendable>(
        _ type: Value.Type,
        _ query: PostgresQuery,
        on connection: PostgresConnection
    ) async throws -> Value? {
        for try await value in try await connection.query(query, logger: ConnectionLease.logger).decode(Value.self) {
            return value
        }
        return nil
    }

    /// The text the namespace's advisory lock is keyed by (through `hashtextextended`).
    var namespaceLockKey: String { "forge_files:\(tableName)\n\(storedNamespace)" }

    /// Takes, until the transaction ends, the namespace's lock shared (``removeAll()`` takes it alone) and the lock of
    /// `file`'s top folder alone: every path that can conflict with `file` (itself, the folders on its way, the files
    /// beneath it) has the same top folder.
    func lockTopFolder(of file: StoredFilePath, on connection: PostgresConnection) async throws {
        let topFolderKey = namespaceLockKey + "\n" + (file.components.first ?? "")
        let query: PostgresQuery = """
            SELECT pg_advisory_xact_lock_shared(hashtextextended(\(namespaceLockKey), 0)), \
            pg_advisory_xact_lock(hashtextextended(\(topFolderKey), 0))
            """
        _ = try await connection.query(query, logger: ConnectionLease.logger)
    }

    /// Whether a folder on the way to `file` is a file, whether `file` is a folder, and the content stored at it.
    func conflicts(of file: StoredFilePath, on connection: PostgresConnection) async throws -> Conflicts {
        let query: PostgresQuery = """
            SELECT
                EXISTS (SELECT 1 FROM \(unescaped: table.files) WHERE \
                    namespace_hash = sha256(convert_to(\(storedNamespace), 'UTF8')) AND namespace = \(storedNamespace) \
                    AND path = ANY(\(file.enclosingFolders)::text[])),
                EXISTS (SELECT 1 FROM \(unescaped: table.files) WHERE \
                    namespace_hash = sha256(convert_to(\(storedNamespace), 'UTF8')) AND namespace = \(storedNamespace) \
                    AND path >= \(file.string + "/") AND path < \(file.string + "0")),
                (SELECT content_id FROM \(unescaped: table.files) WHERE \
                    namespace_hash = sha256(convert_to(\(storedNamespace), 'UTF8')) AND namespace = \(storedNamespace) \
                    AND path = \(file.string))
            """
        let rows = try await connection.query(query, logger: ConnectionLease.logger)
        for try await (parentIsFile, isFolder, oldContent) in rows.decode((Bool, Bool, UUID?).self) {
            return Conflicts(parentIsFile: parentIsFile, isFolder: isFolder, oldContent: oldContent)
        }
        return Conflicts(parentIsFile: false, isFolder: false, oldContent: nil)
    }

    /// Whether files are stored beneath `file`: the range of paths that start with `file/`, in byte order.
    func isFolder(_ file: StoredFilePath, on connection: PostgresConnection) async throws -> Bool {
        let query: PostgresQuery = """
            SELECT EXISTS (SELECT 1 FROM \(unescaped: table.files) WHERE \
            namespace_hash = sha256(convert_to(\(storedNamespace), 'UTF8')) AND namespace = \(storedNamespace) \
            AND path >= \(file.string + "/") AND path < \(file.string + "0"))
            """
        return try await single(Bool.self, query, on: connection) ?? false
    }

    /// Inserts `data` as the chunks of `content`, one statement per chunk, so that only the chunk being sent is
    /// copied.
    func writeChunks(of data: Data, as content: UUID, on connection: PostgresConnection) async throws {
        var start = data.startIndex
        var index: Int32 = 0
        while start < data.endIndex {
            let end = data.index(start, offsetBy: Self.chunkSize, limitedBy: data.endIndex) ?? data.endIndex
            let chunk = data[start..<end]
            // Data's encoding is declared throwing; it copies the chunk's bytes and never fails.
            let query: PostgresQuery = try """
            INSERT INTO \(unescaped: table.chunks) (content_id, chunk_index, data) \
            VALUES (\(content), \(index), \(chunk))
            """
            _ = try await connection.query(query, logger: ConnectionLease.logger)
            start = end
            index += 1
        }
    }

    /// Points `file`'s row at `content`, inserting the row when the file is new.
    func pointRow(of file: StoredFilePath, at content: UUID, size: Int, on connection: PostgresConnection) async throws
    {
        let query: PostgresQuery = """
            INSERT INTO \(unescaped: table.files) (namespace_hash, namespace, path, size, content_id) \
            VALUES (sha256(convert_to(\(storedNamespace), 'UTF8')), \(storedNamespace), \(file.string), \
            \(Int64(size)), \(content)) \
            ON CONFLICT (namespace_hash, path) DO UPDATE SET size = excluded.size, content_id = excluded.content_id, \
            modified = now()
            """
        _ = try await connection.query(query, logger: ConnectionLease.logger)
    }

    /// Deletes the chunks of `content`.
    func deleteChunks(of content: UUID, on connection: PostgresConnection) async throws {
        let query: PostgresQuery = "DELETE FROM \(unescaped: table.chunks) WHERE content_id = \(content)"
        _ = try await connection.query(query, logger: ConnectionLease.logger)
    }

    /// The content of the file at `file`, checked to add up, or nil when no file is stored there.
    ///
    /// - Throws: `FileStoreError/readFailed(path:reason:)` when the chunks do not make the stored size (rows other
    ///   SQL wrote or removed).
    func storedContent(of file: StoredFilePath, on connection: PostgresConnection) async throws -> StoredContent? {
        let query: PostgresQuery = """
            SELECT f.size, f.content_id, count(c.chunk_index), coalesce(sum(octet_length(c.data)), 0)::bigint, \
            coalesce(min(c.chunk_index), 0), coalesce(max(c.chunk_index), -1)
            FROM \(unescaped: table.files) AS f LEFT JOIN \(unescaped: table.chunks) AS c ON c.content_id = f.content_id
            WHERE f.namespace_hash = sha256(convert_to(\(storedNamespace), 'UTF8')) \
            AND f.namespace = \(storedNamespace) AND f.path = \(file.string)
            GROUP BY f.size, f.content_id
            """
        let rows = try await connection.query(query, logger: ConnectionLease.logger)
        for try await (size, id, count, bytes, first, last) in rows.decode(
            (Int64, UUID, Int64, Int64, Int32, Int32).self
        ) {
            let numbered = count == 0 ? last == -1 : first == 0 && Int64(last) == count - 1
            guard size >= 0, size == bytes, numbered, let size = Int(exactly: size) else {
                throw FileStoreError.readFailed(
                    path: file.string,
                    reason: .other(
                        "the stored file is damaged: its size is \(size) bytes, and its \(count) chunks, numbered "
                            + "\(first) to \(last), hold \(bytes) bytes"
                    )
                )
            }
            return StoredContent(id: id, size: size, chunkCount: Int(count))
        }
        return nil
    }

    /// Reads `content`'s chunks one by one into one `Data` whose capacity is reserved from the stored size.
    ///
    /// - Throws: `FileStoreError/readFailed(path:reason:)` naming `file` when a chunk is missing.
    func readChunks(of content: StoredContent, file: StoredFilePath, on connection: PostgresConnection) async throws
        -> Data
    {
        var data = Data()
        data.reserveCapacity(content.size)
        for index in 0..<Int32(content.chunkCount) {
            let query: PostgresQuery = """
                SELECT data FROM \(unescaped: table.chunks) WHERE content_id = \(content.id) AND chunk_index = \(index)
                """
            guard let chunk = try await single(ByteBuffer.self, query, on: connection) else {
                throw FileStoreError.readFailed(
                    path: file.string,
                    reason: .other("chunk \(index) of the stored file is missing")
                )
            }
            chunk.withUnsafeReadableBytes { bytes in data.append(bytes.assumingMemoryBound(to: UInt8.self)) }
        }
        return data
    }

    /// The query of the entries directly in `folder`: its files by path and its sub-folders by path and `/`, each
    /// once, in byte order.
    ///
    /// The server walks the primary key from entry to entry: after a file it looks for the next path, after a
    /// sub-folder `docs/a/` for the first path from `docs/a0` (`0` follows `/` in byte order), so the files deeper down
    /// are skipped, not read. A listing costs one index probe per entry, however many files lie deeper.
    func listQuery(of folder: StoredFilePath) -> PostgresQuery {
        let prefix = folder.string.isEmpty ? "" : folder.string + "/"
        // Paths at or above `end` are past the folder; the top folder has no end.
        let end: String? = folder.string.isEmpty ? nil : folder.string + "0"
        return """
            WITH RECURSIVE walk(entry) AS (
                (SELECT \(unescaped: entryOf("path")) FROM \(unescaped: table.files)
                 WHERE namespace_hash = sha256(convert_to(\(storedNamespace), 'UTF8')) AND namespace = \(storedNamespace)
                 AND path >= \(prefix) AND (\(end)::text IS NULL OR path < \(end))
                 ORDER BY path LIMIT 1)
                UNION ALL
                SELECT (
                    SELECT \(unescaped: entryOf("next.path")) FROM \(unescaped: table.files) AS next
                    WHERE next.namespace_hash = sha256(convert_to(\(storedNamespace), 'UTF8'))
                    AND next.namespace = \(storedNamespace)
                    AND next.path >= CASE WHEN right(walk.entry, 1) = '/'
                        THEN left(walk.entry, -1) || '0' ELSE walk.entry || chr(1) END
                    AND (\(end)::text IS NULL OR next.path < \(end))
                    ORDER BY next.path LIMIT 1
                )
                FROM walk WHERE walk.entry IS NOT NULL
            )
            SELECT entry FROM walk WHERE entry IS NOT NULL
            """

        /// The SQL of the entry of `folder` that the path in `column` lies in: the path itself when it is directly
        /// in the folder, else its sub-folder's path and `/`.
        func entryOf(_ column: String) -> String {
            // PostgreSQL counts characters as Unicode scalars.
            let prefixLength = prefix.unicodeScalars.count
            return """
                CASE WHEN strpos(substr(\(column), \(prefixLength + 1)), '/') = 0 THEN \(column) \
                ELSE left(\(column), \(prefixLength) + strpos(substr(\(column), \(prefixLength + 1)), '/')) END
                """
        }
    }
}
