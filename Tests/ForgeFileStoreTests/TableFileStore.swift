import ForgeFileStore
import Foundation

/// A file store as a user writes one: the eight requirements of ``FileBackend`` and nothing else.
///
/// Its files are rows of a table that namespaces share, as a database table would be shared. Path rules, canonical spellings, `notFound`, errors naming
/// the caller's path, sorted listings, `save(_:to:)`, the JSON helpers and `allFiles()` come from the library;
/// `TableFileStoreTests` holds it to both whole conformance suites.
struct TableFileStore: FileStoring, AsyncFileStoring, FileBackend {
    /// A file's row: its bytes and when they were written.
    struct Row {
        var data: Data
        var modified: Date
    }

    /// The rows of every namespace: namespace, then path, then the file's row.
    final class Table: @unchecked Sendable {
        // Safe to share: `rows` is read and written only under `lock`.
        private let lock = NSLock()
        private var rows: [String: [String: Row]] = [:]

        func withRows<Result>(_ body: (inout [String: [String: Row]]) throws -> Result) rethrows -> Result {
            try lock.withLock { try body(&rows) }
        }
    }

    let table: Table
    let namespace: String

    func contents(at path: StoredFilePath) throws -> Data? {
        try table.withRows { rows in
            let files = rows[namespace] ?? [:]
            if let row = files[path.string] { return row.data }
            if Self.isFolder(path, in: files) { throw FileStoreError.readFailed(path: path.string, reason: .isFolder) }
            return nil
        }
    }

    func write(_ data: Data, at path: StoredFilePath, replacing: Bool) throws {
        try table.withRows { rows in
            let files = rows[namespace] ?? [:]
            if path.enclosingFolders.contains(where: { files[$0] != nil }) {
                throw FileStoreError.writeFailed(path: path.string, reason: .parentIsFile)
            }
            if Self.isFolder(path, in: files) { throw FileStoreError.writeFailed(path: path.string, reason: .isFolder) }
            if files[path.string] != nil, !replacing { throw FileStoreError.alreadyExists(path: path.string) }
            rows[namespace, default: [:]][path.string] = Row(data: data, modified: Date())
        }
    }

    func removeFile(at path: StoredFilePath) throws -> Bool {
        try table.withRows { rows in
            if rows[namespace]?.removeValue(forKey: path.string) != nil { return true }
            if Self.isFolder(path, in: rows[namespace] ?? [:]) {
                throw FileStoreError.deleteFailed(path: path.string, reason: .isFolder)
            }
            return false
        }
    }

    func hasFile(at path: StoredFilePath) -> Bool {
        table.withRows { $0[namespace]?[path.string] != nil }
    }

    func storedFileInfo(at path: StoredFilePath) -> StoredFileInfo? {
        guard let row = table.withRows({ $0[namespace]?[path.string] }) else { return nil }
        return StoredFileInfo(path: path.string, size: row.data.count, modificationDate: row.modified)
    }

    /// The first name after `folder/` of each path beneath it, with its `/` when more follows; repeats are fine.
    func entryNames(in folder: StoredFilePath) -> [String] {
        let prefix = folder.string.isEmpty ? "" : folder.string + "/"
        let paths = table.withRows { Array(($0[namespace] ?? [:]).keys) }
        return paths.filter { $0.hasPrefix(prefix) }
            .map { path in
                let rest = path.dropFirst(prefix.count)
                return rest.firstIndex(of: "/").map { String(rest[...$0]) } ?? String(rest)
            }
    }

    func removeAll() {
        table.withRows { $0[namespace] = nil }
    }

    func storedSize() -> Int {
        table.withRows { ($0[namespace] ?? [:]).values.reduce(0) { $0 + $1.data.count } }
    }

    /// Whether files lie beneath `path`.
    private static func isFolder(_ path: StoredFilePath, in files: [String: Row]) -> Bool {
        files.keys.contains { $0.hasPrefix(path.string + "/") }
    }
}
