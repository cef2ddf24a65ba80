public import ForgeFileStore
internal import Foundation
internal import GRDB

/// A `FileStoring` (and `AsyncFileStoring`) store on tables of a SQLite database file, which any number of stores
/// and processes share.
///
/// Each namespace's files are rows of two tables, `forge_files` (a row per file, which holds the contents of a file of
/// up to 2 KiB) and `forge_file_chunks` (a larger file's contents in rows of 1 MiB), created by the first write
/// beside the key-value stores' table: stores of different namespaces, and key-value stores, on one database never see
/// each other's data, and a store made with the database's file URL in another process sees this one's writes.
///
/// ```swift
/// let database = SQLiteDatabase(fileURL: folder.appendingPathComponent("taskflow.sqlite"))
/// let attachments = SQLiteFileStore(database: database, namespace: "attachments")
/// try attachments.save(Data("hello".utf8), to: "notes/today.txt")
/// print(try attachments.list(in: "notes"))  // ["notes/today.txt"]
/// ```
///
/// It is a `FileBackend`, so its `FileStoring` API is the library's, as `DiskFileStore`'s is: the same path rules
/// (paths kept in their canonical NFC spelling), the same listing order and the same `FileStoreError` for the same
/// situation, each naming the path as given. Folders are implicit, as on PostgreSQL: a folder exists while a file lies
/// beneath it, and a path is never a file and a folder at once.
///
/// ## Atomicity and durability
/// A save is one transaction on the database's one writer connection: it checks that the path is not a folder, that
/// no folder on its way is a file and, for `overwrite: false`, that no file is there, then writes the file's row (which
/// holds the contents of a file of up to 2 KiB) and the chunks of a larger one, and removes the chunks it no longer
/// needs. A reader, another process, or a process that crashes mid-save, finds the old file or the new one, whole; of
/// two conflicting saves one sees the other's result. A load reads the row and its chunks in one read transaction, so a
/// save that commits meanwhile never tears it. What a power loss keeps is the store's `Durability`, as on the disk
/// stores: `.atomic` (the default) commits without flushing (WAL with `synchronous = NORMAL`), `.flushed` flushes the
/// log before each save returns (`synchronous = FULL`).
///
/// ## Memory
/// Contents larger than 2 KiB are stored in rows of 1 MiB. A save binds each chunk as a slice of the caller's `Data`, which SQLite copies
/// one chunk at a time; a load reserves one `Data` of the stored size and appends each chunk to it straight from
/// SQLite's row, without copying the chunk first. A file of any size costs about one copy of it in memory, plus a
/// chunk and SQLite's page cache: a process that saves a 64 MiB `Data` and loads it back peaks at about 10 MiB above
/// the two 64 MiB copies it holds (maximum resident size, 169 MB against 158 MB for the two copies alone, on Linux).
///
/// ## Failures
/// A call that fails throws its operation's `FileStoreError` with a `FailureReason`: a full disk is `.outOfSpace`, a
/// database another connection keeps locked past ``SQLiteDatabase/busyTimeout`` is `.busy`, a file that is not a
/// SQLite database or a table of ours in a shape this version does not know is `.other` with a sentence naming the
/// database's path. A row that other SQL wrote
/// and whose chunks do not add up to its size fails the load with a typed error too.
public struct SQLiteFileStore: Sendable {
    /// The database the store's rows live in.
    public let database: SQLiteDatabase
    /// The name of the group of files this store holds; other namespaces in the database are never touched.
    public let namespace: String
    /// Whether each save is flushed to the device before it returns.
    public let durability: Durability

    /// ``namespace`` as rows store it, as the key-value table stores its namespaces.
    let storedNamespace: Data

    /// Creates a store for `namespace`'s files in `database`.
    ///
    /// - Parameters:
    ///   - database: The database, which other stores may share.
    ///   - namespace: The group of files of this store. Any string.
    ///   - durability: Whether each save is flushed to the device before it returns. Defaults to `.atomic`: atomic,
    ///     not flushed.
    public init(database: SQLiteDatabase, namespace: String, durability: Durability = .atomic) {
        self.database = database
        self.namespace = namespace
        self.durability = durability
        self.storedNamespace = SQLiteKVTable.stored(namespace)
    }

    /// Creates a store for `namespace`'s files in the database file `fileURL`, opened for this store alone.
    ///
    /// Stores made this way on one file share its data, but each opens its own connections: give stores in one
    /// process one ``SQLiteDatabase`` instead.
    ///
    /// - Parameters:
    ///   - fileURL: The database file, created with its folder when missing.
    ///   - namespace: The group of files of this store. Any string.
    ///   - durability: Whether each save is flushed to the device before it returns. Defaults to `.atomic`.
    public init(fileURL: URL, namespace: String, durability: Durability = .atomic) {
        self.init(database: SQLiteDatabase(fileURL: fileURL), namespace: namespace, durability: durability)
    }
}

extension SQLiteFileStore: FileStoring, AsyncFileStoring, FileBackend {
    /// The contents of the file at `path`, read in one statement (its row and its chunks); nil when no file is stored
    /// there.
    ///
    /// - Throws: `FileStoreError.readFailed(path:reason:)`, also when `path` is a folder and when the stored chunks
    ///   do not add up to the file's size.
    public func contents(at path: StoredFilePath) throws -> Data? {
        try perform(FileStoreError.readFailed(path:reason:), path.string) {
            try database.read { db in
                guard try database.holdsTable(SQLiteFileTable.name, in: db) else { return nil }
                guard let data = try readFile(at: path, in: db) else {
                    if try isFolder(path, in: db) {
                        throw FileStoreError.readFailed(path: path.string, reason: .isFolder)
                    }
                    return nil
                }
                return data
            }
        }
    }

    /// Stores `data` at `path` in one transaction: the checks, the file's row (with the contents of a small file), the
    /// chunks of a larger one, and the old chunks it no longer needs removed.
    ///
    /// - Throws: `FileStoreError.alreadyExists(path:)` or `FileStoreError.writeFailed(path:reason:)`; what was
    ///   stored at `path` is kept.
    public func write(_ data: Data, at path: StoredFilePath, replacing: Bool) throws {
        try database.apply([writing(data, at: path, replacing: replacing)])
    }

    /// Removes the file at `path` and its chunks in one transaction; false when no file is stored there.
    ///
    /// - Throws: `FileStoreError.deleteFailed(path:reason:)`, also when `path` is a folder.
    public func removeFile(at path: StoredFilePath) throws -> Bool {
        do {
            try database.apply([removing(at: path)])
            return true
        } catch FileStoreError.notFound {
            return false
        }
    }

    /// Whether a file is stored at `path`: false for a folder, and when the database cannot be read.
    public func hasFile(at path: StoredFilePath) -> Bool {
        let found = try? database.read { db -> Bool? in
            guard try database.holdsTable(SQLiteFileTable.name, in: db) else { return nil }
            return try Bool.fetchOne(
                db.cachedStatement(sql: SQLiteFileTable.hasFile),
                arguments: [storedNamespace, SQLiteFileTable.stored(path.string)]
            )
        }
        return found != nil
    }

    /// The size of the file at `path` and when it was last saved, in one statement; nil when no file is stored there.
    ///
    /// - Throws: `FileStoreError.readFailed(path:reason:)` when the database cannot be read.
    public func storedFileInfo(at path: StoredFilePath) throws -> StoredFileInfo? {
        try perform(FileStoreError.readFailed(path:reason:), path.string) {
            try database.read { db in
                guard try database.holdsTable(SQLiteFileTable.name, in: db) else { return nil }
                return
                    try Row.fetchOne(
                        db.cachedStatement(sql: SQLiteFileTable.selectInfo),
                        arguments: [storedNamespace, SQLiteFileTable.stored(path.string)]
                    )
                    .map { row in
                        // Decoded with the throwing form: a row other SQL damaged fails the call, never traps.
                        StoredFileInfo(
                            path: path.string,
                            size: try row.decode(atIndex: 0),
                            modificationDate: Date(timeIntervalSince1970: try row.decode(atIndex: 1))
                        )
                    }
            }
        }
    }

    /// The names of the files and sub-folders directly in `folder`, sub-folders ending in `/`, found by walking the
    /// table's key from entry to entry in one read transaction.
    ///
    /// After a file the walk looks for the next path, after a sub-folder `docs/a/` for the first path from `docs/a0`,
    /// so the files deeper down are skipped, not read: a listing costs one index probe per entry.
    ///
    /// - Throws: `FileStoreError.listFailed(path:reason:)`.
    public func entryNames(in folder: StoredFilePath) throws -> [String] {
        try perform(FileStoreError.listFailed(path:reason:), folder.string) {
            try database.snapshot { db in
                guard try database.holdsTable(SQLiteFileTable.name, in: db) else { return [] }
                return try entries(in: folder, db)
            }
        }
    }

    /// Removes every file of this namespace and its chunks in one transaction; other namespaces are untouched.
    ///
    /// - Throws: `FileStoreError.deleteFailed(path:reason:)` with an empty path.
    public func removeAll() throws {
        try perform(FileStoreError.deleteFailed(path:reason:), "") {
            try database.write(durability, changing: nil) { db in
                try db.cachedStatement(sql: SQLiteFileTable.deleteAllFiles).execute(arguments: [storedNamespace])
                try db.cachedStatement(sql: SQLiteFileTable.deleteAllChunks).execute(arguments: [storedNamespace])
            }
        }
    }

    /// The sum of the sizes of this namespace's files, in one statement.
    ///
    /// - Throws: `FileStoreError.listFailed(path:reason:)` with an empty path.
    public func storedSize() throws -> Int {
        try perform(FileStoreError.listFailed(path:reason:), "") {
            try database.read { db in
                guard try database.holdsTable(SQLiteFileTable.name, in: db) else { return 0 }
                return try Int.fetchOne(
                    db.cachedStatement(sql: SQLiteFileTable.totalSize),
                    arguments: [storedNamespace]
                )
                    ?? 0
            }
        }
    }

    /// Every file of this namespace with its size and the time it was last saved, in one statement, sorted by path as
    /// Swift sorts strings: the answer of the walk every other store gets, which would take a statement per folder
    /// and per file.
    ///
    /// - Throws: `FileStoreError.listFailed(path:reason:)` with an empty path.
    public func allFiles() throws -> [StoredFileInfo] {
        try perform(FileStoreError.listFailed(path:reason:), "") {
            try database.read { db -> [StoredFileInfo] in
                guard try database.holdsTable(SQLiteFileTable.name, in: db) else { return [] }
                return try Row.fetchAll(db.cachedStatement(sql: SQLiteFileTable.allFiles), arguments: [storedNamespace])
                    .map { row in
                        StoredFileInfo(
                            path: SQLiteFileTable.text(fromStored: try row.decode(atIndex: 0)),
                            size: try row.decode(atIndex: 1),
                            modificationDate: Date(timeIntervalSince1970: try row.decode(atIndex: 2))
                        )
                    }
            }
        }
        .sorted { $0.path < $1.path }
    }
}
