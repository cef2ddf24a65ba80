internal import PostgresNIO

/// The SQL names of a ``PostgresFileStore``'s two tables, and the statement that creates them.
///
/// `<name>` holds one row per file: `(namespace_hash, namespace, path, size, content_id, modified)`, keyed by
/// `(namespace_hash, path)`. `namespace_hash` is the SHA-256 of the stored namespace's UTF-8 bytes, so that a
/// namespace of any length fits PostgreSQL's B-tree (an entry holds at most 2,704 bytes; a path holds at most 1,024);
/// every statement compares `namespace` itself too. `path` is collated `"C"`: compared byte by byte, so that the
/// range `path >= 'docs/' AND path < 'docs0'` holds exactly the paths under `docs`, served by the primary key.
///
/// `<name>_chunks` holds the content: `(content_id, chunk_index, data)`, keyed by `(content_id, chunk_index)`, one row
/// per `PostgresFileStore.chunkSize` bytes (the last one shorter; none for an empty file). A save writes its
/// content under a new `content_id`, then points the file's row at it and deletes the old chunks, all in one
/// transaction. `data` is stored uncompressed (`STORAGE EXTERNAL`): files are often compressed already, and a chunk
/// is then read without decompressing.
struct PostgresFileTable: StoreTable {
    /// The files table's name, checked by ``validationFailure``.
    let name: String

    /// The files table, quoted for SQL.
    var files: String { TableName.quoted(name) }

    /// The chunks table, quoted for SQL.
    var chunks: String { "\"\(name)_chunks\"" }

    /// One statement that creates both tables when missing, under a transaction-scoped advisory lock, so that stores
    /// preparing at once in several processes do not race on the catalog.
    ///
    /// Only valid when ``validationFailure`` is nil: the name is written into the SQL as it is, quoted.
    var createStatement: PostgresQuery {
        PostgresQuery(
            unsafeSQL: """
                DO $forge$
                BEGIN
                    PERFORM pg_advisory_xact_lock(hashtext('forge_files_table:\(name)'));
                    CREATE TABLE IF NOT EXISTS \(files) (
                        namespace_hash bytea NOT NULL,
                        namespace text NOT NULL,
                        path text COLLATE "C" NOT NULL,
                        size bigint NOT NULL,
                        content_id uuid NOT NULL,
                        modified timestamptz NOT NULL DEFAULT now(),
                        PRIMARY KEY (namespace_hash, path)
                    );
                    CREATE TABLE IF NOT EXISTS \(chunks) (
                        content_id uuid NOT NULL,
                        chunk_index integer NOT NULL,
                        data bytea NOT NULL,
                        PRIMARY KEY (content_id, chunk_index)
                    );
                    ALTER TABLE \(chunks) ALTER COLUMN data SET STORAGE EXTERNAL;
                END
                $forge$
                """
        )
    }

    /// A query of one Boolean: whether both tables exist, so nothing is to be made.
    var readinessQuery: PostgresQuery {
        PostgresQuery(
            unsafeSQL: """
                SELECT to_regclass('\(files)') IS NOT NULL AND to_regclass('\(chunks)') IS NOT NULL
                """
        )
    }
}
