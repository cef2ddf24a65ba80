internal import ForgeFileStore
internal import Foundation
internal import GRDB

/// The tables of the file stores, `forge_files` and `forge_file_chunks`, and the SQL each store operation runs on them.
///
/// `forge_files` holds a row per file: `(namespace BLOB, path BLOB, size INTEGER, modified REAL, data BLOB)`, keyed by
/// the namespace and the path; `modified` is seconds since 1970, and `data` the contents of a file of at most
/// ``inlineLimit`` bytes (NULL for a larger one, and for an empty one). `forge_file_chunks` holds the contents of the
/// larger files, in rows of at most ``chunkSize`` bytes: `(namespace BLOB, path BLOB, chunk INTEGER, data BLOB)`, keyed
/// by the file and the chunk's number from 0. Both are rowid tables in a new file, as SQLite advises for rows this
/// large: a small file saved again is one row of one page, where its contents in a chunk, or in a row of a `WITHOUT
/// ROWID` table (whose rows spill past 1,000 bytes or so into pages of their own), would be more pages. A file upgraded
/// from version 1 keeps its `WITHOUT ROWID` `forge_files`, the column added to it. Namespaces and paths are the UTF-8
/// bytes of their canonical (NFC) form, as the key-value table keeps its keys, so they compare byte by byte: the files
/// beneath the folder `docs` are the paths from `docs/` up to, not including, `docs0` (`0` follows `/`).
enum SQLiteFileTable {
    /// The version of the tables' shape that this code reads and writes, kept in `forge_schema` as `files`.
    ///
    /// Version 1 had no `data` column in `forge_files`; a database of version 1 is upgraded when it is opened for
    /// writing (the column added), its files staying in their chunks until they are saved again.
    static let schemaVersion = 2

    /// The name of the table of the files' rows.
    static let name = "forge_files"
    /// The name of the table of the files' contents.
    static let chunksName = "forge_file_chunks"

    /// The most bytes a chunk row holds: 1 MiB.
    static let chunkSize = 1 << 20

    /// The most bytes of a file kept in its row rather than in chunks: 2 KiB, so that the row, its path with it, fits
    /// whole in a page of the rowid table (4 KiB), spilling into no page of its own.
    static let inlineLimit = 2 << 10

    static let createFiles = """
        CREATE TABLE forge_files (
            namespace BLOB NOT NULL,
            path BLOB NOT NULL,
            size INTEGER NOT NULL,
            modified REAL NOT NULL,
            data BLOB,
            PRIMARY KEY (namespace, path)
        )
        """
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
    /// A file's size and its contents, in one statement, which SQLite reads on one snapshot.
    ///
    /// One row holding them for a file kept in its row, else its chunks in order, one row per chunk (one row with no
    /// data for an empty file, none when no file is there). The chunks are looked for only when the row holds no
    /// contents.
    static let selectFile = """
        SELECT f.size, ifnull(f.data, c.data) FROM forge_files AS f
        LEFT JOIN forge_file_chunks AS c ON f.data IS NULL AND c.namespace = f.namespace AND c.path = f.path
        WHERE f.namespace = ?1 AND f.path = ?2 ORDER BY c.chunk
        """
    static let hasFile = "SELECT 1 FROM forge_files WHERE namespace = ? AND path = ?"
    /// Whether the file `?` has its contents in chunks: no row when no file is there.
    ///
    /// An empty file has no chunk.
    static let selectHoldsChunks = "SELECT data IS NULL AND size > 0 FROM forge_files WHERE namespace = ? AND path = ?"
    /// Whether a file lies in the range `[?, ?)`: beneath a folder.
    static let hasFileInRange = "SELECT 1 FROM forge_files WHERE namespace = ? AND path >= ? AND path < ? LIMIT 1"
    /// The first path at or after `?` and before `?`.
    static let nextPath =
        "SELECT path FROM forge_files WHERE namespace = ? AND path >= ? AND path < ? ORDER BY path LIMIT 1"
    /// The first path at or after `?`, with no end: in the top folder.
    static let nextPathToTheEnd =
        "SELECT path FROM forge_files WHERE namespace = ? AND path >= ? ORDER BY path LIMIT 1"
    /// A file's row, inserted, or updated when the file is there: SQLite then writes the row over the old one where
    /// it is the same size, rather than removing the row and inserting it again (which frees its pages and takes them
    /// again).
    static let upsertFile = """
        INSERT INTO forge_files (namespace, path, size, modified, data) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (namespace, path)
        DO UPDATE SET size = excluded.size, modified = excluded.modified, data = excluded.data
        """
    /// A chunk, inserted, or updated when it is there (written over the old one where it is the same size).
    static let upsertChunk = """
        INSERT INTO forge_file_chunks (namespace, path, chunk, data) VALUES (?, ?, ?, ?)
        ON CONFLICT (namespace, path, chunk) DO UPDATE SET data = excluded.data
        """
    /// A file's chunks from the `?`th on: those a smaller file no longer needs.
    static let deleteChunksFrom = "DELETE FROM forge_file_chunks WHERE namespace = ? AND path = ? AND chunk >= ?"
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
            Column(name: "data", type: "BLOB", primaryKeyPosition: 0),
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
            ],
            // A column added, the table left as it is: no row copied, and nothing that other SQL made on the table (a
            // trigger, a view, a foreign key) lost, as making the table again could lose it.
            upgrades: [1: ["ALTER TABLE forge_files ADD COLUMN data BLOB"]]
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
