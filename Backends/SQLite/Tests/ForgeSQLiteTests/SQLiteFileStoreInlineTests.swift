import ForgeSQLite
import Foundation
import GRDB
import Testing

/// A file of at most 2 KiB is kept in its row of `forge_files`, with no chunk; a larger one in chunks.
///
/// A row whose contents other SQL changed so that they no longer match its size fails its load with a typed error.
struct SQLiteFileStoreInlineTests {
    /// The chunk rows and the rows holding their contents in the database `file`.
    private func counts(in file: URL) throws -> (chunks: Int?, inline: Int?) {
        try DatabaseQueue(path: file.path)
            .read { db in
                (
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM forge_file_chunks"),
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM forge_files WHERE data IS NOT NULL")
                )
            }
    }

    @Test(arguments: [(0, false), (1, false), (2 << 10, false), ((2 << 10) + 1, true)])
    func aFileIsKeptInItsRowUpToTwoKiB(size: Int, inChunks: Bool) async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let store = SQLiteFileStore(fileURL: file, namespace: "store")
            let data = Data((0..<size).map { UInt8(truncatingIfNeeded: $0) })
            try await store.save(data, to: "docs/file.bin")
            #expect(try await store.load("docs/file.bin") == data)
            #expect(try store.fileInfo(at: "docs/file.bin")?.size == size)
            let (chunks, _) = try counts(in: file)
            #expect(chunks == (inChunks ? 1 : 0))
            try await store.delete("docs/file.bin")
            #expect(try counts(in: file) == (0, 0))
        }
    }

    @Test func aRowWhoseContentsDoNotMatchItsSizeFailsItsLoad() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let store = SQLiteFileStore(fileURL: file, namespace: "store")
            try await store.save(Data("twelve bytes".utf8), to: "damaged.txt")
            try await DatabaseQueue(path: file.path)
                .write { db in try db.execute(sql: "UPDATE forge_files SET size = 20") }

            await #expect {
                _ = try await store.load("damaged.txt")
            } throws: { error in
                guard case FileStoreError.readFailed(path: "damaged.txt", reason: .other(let message)) = error else {
                    return false
                }
                return message.contains("20") && message.contains("12")
            }
        }
    }
}
