internal import ForgeFileStore
internal import Foundation
internal import GRDB

extension SQLiteFileStore {
    /// Runs `body`, throwing a `FileStoreError` it throws as it is and any other failure as the error `operation`
    /// makes for `path`.
    func perform<Result>(
        _ operation: @escaping (String, FailureReason) -> FileStoreError,
        _ path: String,
        _ body: () throws -> Result
    ) throws -> Result {
        do {
            return try body()
        } catch {
            throw failure(operation, path)(error)
        }
    }

    /// The error `operation` makes for `path` of a failure: a `FileStoreError` as it is, any other with its reason.
    func failure(
        _ operation: @escaping (String, FailureReason) -> FileStoreError,
        _ path: String
    ) -> (any Error) -> any Error {
        { [database] error in
            error as? FileStoreError ?? operation(path, FailureReason(sqlite: error, path: database.path))
        }
    }

    /// A write of the statements `apply` runs for `path`, in a transaction, which fails with `operation`'s error.
    private func write(
        failing operation: @escaping (String, FailureReason) -> FileStoreError,
        _ path: StoredFilePath,
        _ apply: @escaping (Database) throws -> Void
    ) -> SQLiteWrite {
        SQLiteWrite(
            durability: durability,
            isOneStatement: false,
            failure: failure(operation, path.string),
            apply: apply
        )
    }

    /// The write that stores `data` at `path`, for `write(_:at:replacing:)` and for a transaction: it checks that no
    /// folder on the way is a file, that `path` is not a folder and, unless `replacing`, that no file is there, then
    /// writes the file's row, which holds `data` itself when it is small (``SQLiteFileTable/inlineLimit``), and else
    /// its chunks, each written over the one of its number, and removes the chunks the file no longer needs.
    func writing(_ data: Data, at path: StoredFilePath, replacing: Bool) -> SQLiteWrite {
        write(failing: FileStoreError.writeFailed(path:reason:), path) { db in
            let stored = SQLiteFileTable.stored(path.string)
            let hasFile = try db.cachedStatement(sql: SQLiteFileTable.hasFile)
            for folder in path.enclosingFolders
            where try Bool.fetchOne(hasFile, arguments: [storedNamespace, SQLiteFileTable.stored(folder)]) != nil {
                throw FileStoreError.writeFailed(path: path.string, reason: .parentIsFile)
            }
            // Nil when no file is there; whether the one there has its contents in chunks. A file is no folder, so
            // only a path without one is looked beneath.
            let holdsChunks = try Bool.fetchOne(
                db.cachedStatement(sql: SQLiteFileTable.selectHoldsChunks),
                arguments: [storedNamespace, stored]
            )
            if holdsChunks == nil, try isFolder(path, in: db) {
                throw FileStoreError.writeFailed(path: path.string, reason: .isFolder)
            }
            if !replacing, holdsChunks != nil {
                throw FileStoreError.alreadyExists(path: path.string)
            }
            let isInline = data.count <= SQLiteFileTable.inlineLimit
            let chunkCount = isInline ? 0 : try writeChunks(of: data, at: stored, in: db)
            // A file in its row has no chunk; any other path's chunks go (rows other SQL left under a path with no
            // file among them): one search of the chunks' key.
            if holdsChunks != false {
                try db.cachedStatement(sql: SQLiteFileTable.deleteChunksFrom)
                    .execute(arguments: [storedNamespace, stored, chunkCount])
            }
            try db.cachedStatement(sql: SQLiteFileTable.upsertFile)
                .execute(
                    arguments: [
                        storedNamespace, stored, data.count, Date().timeIntervalSince1970, isInline ? data : nil,
                    ]
                )
        }
    }

    /// The write that removes the file at `path` and its chunks, for `removeFile(at:)` and for a transaction.
    ///
    /// It fails with `FileStoreError.notFound(path:)` when no file is there (having changed nothing), and with
    /// `FileStoreError.deleteFailed(path:reason:)` when `path` is a folder.
    func removing(at path: StoredFilePath) -> SQLiteWrite {
        write(failing: FileStoreError.deleteFailed(path:reason:), path) { db in
            let stored = SQLiteFileTable.stored(path.string)
            try db.cachedStatement(sql: SQLiteFileTable.deleteFile).execute(arguments: [storedNamespace, stored])
            guard db.changesCount > 0 else {
                if try isFolder(path, in: db) {
                    throw FileStoreError.deleteFailed(path: path.string, reason: .isFolder)
                }
                throw FileStoreError.notFound(path: path.string)
            }
            try db.cachedStatement(sql: SQLiteFileTable.deleteChunks).execute(arguments: [storedNamespace, stored])
        }
    }

    /// Whether files are stored beneath `path`: the range of paths from `path/` up to `path0`, in byte order.
    func isFolder(_ path: StoredFilePath, in db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: SQLiteFileTable.hasFileInRange),
            arguments: [
                storedNamespace, SQLiteFileTable.stored(path.string + "/"), SQLiteFileTable.stored(path.string + "0"),
            ]
        ) != nil
    }

    /// Writes `data` as the chunks of the file `stored`, over those of the same numbers, one statement per chunk (each
    /// binds a slice of `data`, not a copy, which SQLite copies as it binds it), and returns how many it wrote.
    func writeChunks(of data: Data, at stored: Data, in db: Database) throws -> Int {
        let insert = try db.cachedStatement(sql: SQLiteFileTable.upsertChunk)
        var start = data.startIndex
        var index = 0
        while start < data.endIndex {
            let end = data.index(start, offsetBy: SQLiteFileTable.chunkSize, limitedBy: data.endIndex) ?? data.endIndex
            try insert.execute(arguments: [storedNamespace, stored, index, data[start..<end]])
            start = end
            index += 1
        }
        return index
    }

    /// Reads the file at `path` in one statement, its size and then its chunks in order; nil when no file is there.
    ///
    /// The chunks go into one `Data` reserved for the file's size: each is appended from SQLite's row as it is
    /// (`Row.withUnsafeData`), never copied into a `Data` of its own first.
    ///
    /// - Throws: `FileStoreError.readFailed(path:reason:)` when the chunks do not add up to the size (rows that other
    ///   SQL wrote or removed).
    func readFile(at path: StoredFilePath, in db: Database) throws -> Data? {
        func damaged(_ size: Int64, _ found: Int) -> FileStoreError {
            FileStoreError.readFailed(
                path: path.string,
                reason: .other("the stored file is damaged: its size is \(size) bytes, and its chunks hold \(found)")
            )
        }
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: SQLiteFileTable.selectFile),
            arguments: [storedNamespace, SQLiteFileTable.stored(path.string)]
        )
        // The file's size, from its first row; nil while no row was read, and when there is none.
        var size: Int?
        var data = Data()
        while let row = try rows.next() {
            if size == nil {
                // A size another program stored as something else than an integer fails to decode, as a typed error.
                let stored: Int64 = try row.decode(atIndex: 0)
                guard let count = Int(exactly: stored), count >= 0 else { throw damaged(stored, 0) }
                size = count
                data.reserveCapacity(count)
            }
            try row.withUnsafeData(atIndex: 1) { chunk in
                guard let chunk, let size else { return }
                guard data.count + chunk.count <= size else { throw damaged(Int64(size), data.count + chunk.count) }
                data.append(chunk)
            }
        }
        guard let size else { return nil }
        guard data.count == size else { throw damaged(Int64(size), data.count) }
        return data
    }

    /// The entries directly in `folder`, each once, in byte order: one probe of the table's key per entry.
    func entries(in folder: StoredFilePath, _ db: Database) throws -> [String] {
        let slash = UInt8(ascii: "/")
        let prefix = folder.string.isEmpty ? Data() : SQLiteFileTable.stored(folder.string + "/")
        // In the top folder every path sorts at or after the one byte 0, and nothing comes after its last path.
        var from = folder.string.isEmpty ? Data([0]) : prefix
        let end = folder.string.isEmpty ? nil : SQLiteFileTable.stored(folder.string + "0")
        let next = try db.cachedStatement(
            sql: end == nil ? SQLiteFileTable.nextPathToTheEnd : SQLiteFileTable.nextPath
        )
        var entries: [String] = []
        while true {
            let arguments: StatementArguments = end.map { [storedNamespace, from, $0] } ?? [storedNamespace, from]
            guard let path = try Data.fetchOne(next, arguments: arguments), path.starts(with: prefix) else { break }
            let rest = path.dropFirst(prefix.count)
            if let separator = rest.firstIndex(of: slash) {
                // A sub-folder: its name and `/`; the next entry is at or after the sub-folder's name and `0`.
                entries.append(SQLiteFileTable.text(fromStored: rest[...separator]))
                from = path[..<separator] + Data([UInt8(ascii: "0")])
            } else {
                // A file: the next entry is after it, at or after its path and the byte 0.
                entries.append(SQLiteFileTable.text(fromStored: rest))
                from = path + Data([0])
            }
        }
        return entries
    }
}
