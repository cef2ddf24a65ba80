internal import ForgeFileStore
internal import Foundation
internal import GRDB

/// The tables of the file stores, `forge_files` and `forge_file_chunks`, and the SQL each store operation runs on them.
///
/// `forge_files` holds a row per file: `(namespace BLOB, path BLOB, size INTEGER, modified REAL)`, keyed by the
/// namespace and the path; `modified` is seconds since 1970. `forge_file_chunks` holds the contents, in rows of at most
/// ``chunkSize`` bytes: `(namespace BLOB, path BLOB, chunk INTEGER, data BLOB)`, keyed by the file and the chunk's
/// number from 0. Namespaces and paths are the UTF-8 bytes of their canonical (NFC) form, as the key-value table keeps
/// its keys, so they compare byte by byte: the files beneath the folder `docs` are the paths from `docs/` up to, not
/// including, `docs0` (`0` follows `/`).
enum SQLiteFileTable {
    /// The version of the tables' shape that this code reads and writes, kept in `forge_schema` as `files`.
    static let schemaVersion = 1

    /// The name of the table of the files' rows.
    static let name = "forge_files"
    /// The name of the table of the files' contents.
    static let chunksName = "forge_file_chunks"

    /// The most bytes a chunk row holds: 1 MiB.
    static let chunkSize = 1 << 20

    static let createFiles = """
        CREATE TABLE forge_files (
            namespace BLOB NOT NULL,
            path BLOB NOT NULL,
            size INTEGER NOT NULL,
            modified REAL NOT NULL,
            PRIMARY KEY (namespace, path)
        ) WITHOUT ROWID
        """
    // A rowid table: SQLite advises against WITHOUT ROWID for rows this large.
    static let createChunks = """
        CREATE TABLE forge_file_chunks (
            namespace BLOB NOT NULL,
            path BLOB NOT NULL,
            chunk INTEGER NOT NULL,
            data BLOB NOT NULL,
            PRIMARY KEY (namespace, path, chunk)
        )
        """

    static let selectInfo = "SELECT size, modified FROM forge_files WHERE namespace = ? AND path = ?"
    /// A file's size and its chunks in order, one row per chunk (one row with no data for an empty file, none when no
    /// file is there): one statement, which SQLite reads on one snapshot.
    static let selectFile = """
        SELECT f.size, c.data FROM forge_files AS f
        LEFT JOIN forge_file_chunks AS c ON c.namespace = f.namespace AND c.path = f.path
        WHERE f.namespace = ?1 AND f.path = ?2 ORDER BY c.chunk
        """
    static let hasFile = "SELECT 1 FROM forge_files WHERE namespace = ? AND path = ?"
    /// Whether a file lies in the range `[?, ?)`: beneath a folder.
    static let hasFileInRange = "SELECT 1 FROM forge_files WHERE namespace = ? AND path >= ? AND path < ? LIMIT 1"
    /// The first path at or after `?` and before `?`.
    static let nextPath =
        "SELECT path FROM forge_files WHERE namespace = ? AND path >= ? AND path < ? ORDER BY path LIMIT 1"
    /// The first path at or after `?`, with no end: in the top folder.
    static let nextPathToTheEnd =
        "SELECT path FROM forge_files WHERE namespace = ? AND path >= ? ORDER BY path LIMIT 1"
    static let upsertFile =
        "INSERT OR REPLACE INTO forge_files (namespace, path, size, modified) VALUES (?, ?, ?, ?)"
    static let insertChunk = "INSERT INTO forge_file_chunks (namespace, path, chunk, data) VALUES (?, ?, ?, ?)"
    static let deleteFile = "DELETE FROM forge_files WHERE namespace = ? AND path = ?"
    static let deleteChunks = "DELETE FROM forge_file_chunks WHERE namespace = ? AND path = ?"
    static let deleteAllFiles = "DELETE FROM forge_files WHERE namespace = ?"
    static let deleteAllChunks = "DELETE FROM forge_file_chunks WHERE namespace = ?"
    static let totalSize = "SELECT coalesce(sum(size), 0) FROM forge_files WHERE namespace = ?"
    static let allFiles = "SELECT path, size, modified FROM forge_files WHERE namespace = ?"
    static let namespaces = "SELECT DISTINCT namespace FROM forge_files"

    /// The tables' shape, created or checked by ``prepare(_:path:)``: both are keyed by the namespace and the path.
    private static let schema: SQLiteTableSchema = {
        typealias Column = SQLiteTableSchema.Column
        let key = [
            Column(name: "namespace", type: "BLOB", primaryKeyPosition: 1),
            Column(name: "path", type: "BLOB", primaryKeyPosition: 2),
        ]
        let files = [
            Column(name: "size", type: "INTEGER", primaryKeyPosition: 0),
            Column(name: "modified", type: "REAL", primaryKeyPosition: 0),
        ]
        let chunks = [
            Column(name: "chunk", type: "INTEGER", primaryKeyPosition: 3),
            Column(name: "data", type: "BLOB", primaryKeyPosition: 0),
        ]
        return SQLiteTableSchema(
            component: "files",
            version: schemaVersion,
            tables: [
                .init(name: name, create: createFiles, columns: key + files),
                .init(name: chunksName, create: createChunks, columns: key + chunks),
            ]
        )
    }()

    /// `path` as rows store it: the UTF-8 of its canonical spelling, which a ``StoredFilePath`` is in already.
    static func stored(_ path: String) -> Data {
        Data(path.utf8)
    }

    /// The path a row stores as `stored`.
    static func text(fromStored stored: Data) -> String {
        String(decoding: stored, as: UTF8.self)
    }

    /// Creates the tables when they are missing, or checks that those there have the shape and version this code
    /// knows; run in a write transaction.
    ///
    /// - Throws: ``SchemaProblem`` when a table of ours is in an unknown shape or of a newer version, or only one of
    ///   the two is there; SQLite's error when the file is not a database.
    static func prepare(_ db: Database, path: String) throws {
        try schema.prepare(db, path: path)
    }

    /// Checks the tables when they are there, creating nothing: for a read-only database.
    ///
    /// - Returns: Whether the tables are there.
    /// - Throws: ``SchemaProblem`` as ``prepare(_:path:)`` throws it.
    @discardableResult
    static func check(_ db: Database, path: String) throws -> Bool {
        try schema.check(db, path: path)
    }
}
