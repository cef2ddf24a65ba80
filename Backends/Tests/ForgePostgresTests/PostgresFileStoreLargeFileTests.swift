import ForgeFileStore
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

/// Files of several MiB: stored in chunks, read back whole, replaced and deleted without leaving chunks behind.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresFileStoreLargeFileTests {
    @Test func aFileOfSeveralMiBRoundTripsInChunks() async throws {
        let table = "large_files"
        try await TestServer.withFileStores(tableName: table) { first, second in
            // 5 MiB and a bit: not a round number of chunks.
            let large = patternedData(count: 5 * 1_048_576 + 12_345, seed: 7)
            try await first.save(large, to: "media/video.bin")
            #expect(try await second.load("media/video.bin") == large)
            #expect(try await second.totalSize() == large.count)

            let chunkRows: PostgresQuery = """
                SELECT count(*) FROM "large_files_chunks" AS c JOIN "large_files" AS f ON f.content_id = c.content_id
                WHERE f.namespace = \(first.namespace) AND f.path = 'media/video.bin'
                """
            let rows = try await first.client.query(chunkRows).decode(Int64.self)
            var counts: [Int64] = []
            for try await count in rows { counts.append(count) }
            #expect(counts == [6], "five full chunks of 1 MiB and one of 12,345 bytes")

            let smaller = patternedData(count: 1_048_576, seed: 9)
            try await second.save(smaller, to: "media/video.bin")
            #expect(try await first.load("media/video.bin") == smaller)
            #expect(try await TestServer.orphanedChunkCount(of: table, on: first.client) == 0)
            try await first.delete("media/video.bin")
            #expect(try await TestServer.orphanedChunkCount(of: table, on: first.client) == 0)
            #expect(try await second.list(in: "").isEmpty)
        }
    }
}
