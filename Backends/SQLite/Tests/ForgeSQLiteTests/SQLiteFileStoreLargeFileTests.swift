import ForgeSQLite
import Foundation
import GRDB
import Testing

/// Files larger than a chunk (1 MiB) round-trip whole, through a second database on the file too; a file whose chunks
/// other SQL damaged fails its load with a typed error.
struct SQLiteFileStoreLargeFileTests {
    /// Sizes around the chunk size and a file of many chunks whose last one is partial.
    @Test(arguments: [(1 << 20) - 1, 1 << 20, (1 << 20) + 1, 9 * (1 << 20) + 12_345])
    func aLargeFileRoundTrips(size: Int) async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let store = SQLiteFileStore(fileURL: file, namespace: "store")
            // Bytes that differ from chunk to chunk, so that chunks read out of order would not compare equal.
            let data = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &+ $0 >> 20 &* 7) })

            try await store.save(data, to: "media/large.bin")
            #expect(try await store.load("media/large.bin") == data)
            #expect(try await SQLiteFileStore(fileURL: file, namespace: "store").load("media/large.bin") == data)
            #expect(try await store.totalSize() == size)
            #expect(try store.fileInfo(at: "media/large.bin")?.size == size)

            // A smaller file replaces it whole: no chunk of the old one is left, and a small one is kept in its row.
            try await store.save(Data(repeating: 1, count: (2 << 10) + 1), to: "media/large.bin")
            #expect(try await store.load("media/large.bin") == Data(repeating: 1, count: (2 << 10) + 1))
            #expect(try chunkCount(in: file) == 1)
            try await store.save(Data("small".utf8), to: "media/large.bin")
            #expect(try await store.load("media/large.bin") == Data("small".utf8))
            #expect(try chunkCount(in: file) == 0)
            try await store.save(data, to: "media/large.bin")
            #expect(try await store.load("media/large.bin") == data, "and a large one in chunks again")
        }
    }

    /// How many chunk rows the database `file` holds.
    private func chunkCount(in file: URL) throws -> Int? {
        try DatabaseQueue(path: file.path)
            .read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM forge_file_chunks") }
    }

    @Test func aFileWhoseChunksDoNotAddUpFailsItsLoad() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let store = SQLiteFileStore(fileURL: file, namespace: "store")
            try await store.save(Data(repeating: 7, count: (1 << 20) + 10), to: "damaged.bin")
            try await DatabaseQueue(path: file.path)
                .write { db in
                    try db.execute(sql: "DELETE FROM forge_file_chunks WHERE chunk = 1")
                }

            await #expect {
                _ = try await store.load("damaged.bin")
            } throws: { error in
                guard case FileStoreError.readFailed(path: "damaged.bin", reason: .other(let message)) = error else {
                    return false
                }
                return message.contains("damaged")
            }
        }
    }
}
