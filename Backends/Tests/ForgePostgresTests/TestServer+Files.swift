import ForgeFileStore
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

extension TestServer {
    /// Runs `body` with two file stores on one new namespace of `tableName`, each with its own client, and deletes the
    /// namespace's files after, whether `body` succeeded or not.
    static func withFileStores(
        tableName: String = "forge_files",
        _ body: (_ first: PostgresFileStore, _ second: PostgresFileStore) async throws -> Void
    ) async throws {
        let namespace = "test-\(UUID().uuidString)"
        try await withClient { firstClient in
            try await withClient { secondClient in
                let first = PostgresFileStore(
                    client: firstClient,
                    namespace: namespace,
                    tableName: tableName,
                    connectionWait: connectionWait
                )
                let second = PostgresFileStore(
                    client: secondClient,
                    namespace: namespace,
                    tableName: tableName,
                    connectionWait: connectionWait
                )
                do {
                    try await body(first, second)
                } catch {
                    try? await first.deleteAll()
                    throw error
                }
                try await first.deleteAll()
            }
        }
    }

    /// The number of chunk rows of `tableName` that no file's row points at: content a save or delete left behind.
    static func orphanedChunkCount(of tableName: String, on client: PostgresClient) async throws -> Int {
        let query = PostgresQuery(
            unsafeSQL: """
                SELECT count(*) FROM "\(tableName)_chunks" AS c
                WHERE NOT EXISTS (SELECT 1 FROM "\(tableName)" AS f WHERE f.content_id = c.content_id)
                """
        )
        for try await count in try await client.query(query).decode(Int64.self) { return Int(count) }
        return 0
    }
}

/// `count` bytes of a pattern that differs from one offset to the next and from one `seed` to another, so that a torn
/// or shifted copy never equals it.
func patternedData(count: Int, seed: UInt8) -> Data {
    var data = Data(count: count)
    data.withUnsafeMutableBytes { bytes in
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 31 &+ index >> 8) &+ seed }
    }
    return data
}

/// The logger of the tests' own statements on a connection.
let testLogger = Logger(label: "ForgePostgresTests")
