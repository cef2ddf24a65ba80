import ForgeFileStore
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

/// Rows that other SQL wrote or changed, which the store cannot read: a typed error naming the path, never a crash or
/// a wrong file.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresFileStoreDamagedRowTests {
    @Test func contentThatDoesNotAddUpToItsSizeFailsTheLoad() async throws {
        try await TestServer.withFileStores(tableName: "damaged_files") { store, _ in
            try await store.save(patternedData(count: 2 * 1_048_576 + 10, seed: 1), to: "a.bin")
            try await store.save(patternedData(count: 3 * 1_048_576, seed: 2), to: "b.bin")
            try await store.save(Data("c".utf8), to: "c.txt")
            let client = store.client
            let namespace = store.namespace
            _ = try await client.query(
                "UPDATE damaged_files SET size = 1000000000000 WHERE namespace = \(namespace) AND path = 'a.bin'"
            )
            _ = try await client.query(
                """
                DELETE FROM damaged_files_chunks WHERE chunk_index = 1 AND content_id = (
                    SELECT content_id FROM damaged_files WHERE namespace = \(namespace) AND path = 'b.bin')
                """
            )
            _ = try await client.query(
                "UPDATE damaged_files SET size = -1 WHERE namespace = \(namespace) AND path = 'c.txt'"
            )
            for path in ["a.bin", "b.bin", "c.txt"] {
                let error = await #expect(throws: FileStoreError.self) { try await store.load(path) }
                guard case .readFailed(let named, .other(let message)) = error else {
                    Issue.record("expected readFailed for \(path), got \(String(describing: error))")
                    continue
                }
                #expect(named == path)
                #expect(message.contains("damaged"))
            }
            // What is not damaged reads as before, and the damaged files can be replaced.
            try await store.save(Data("new".utf8), to: "b.bin")
            #expect(try await store.load("b.bin") == Data("new".utf8))
        }
    }

    @Test func aPathThatBreaksTheRulesFailsTheListing() async throws {
        try await TestServer.withFileStores(tableName: "damaged_files") { store, _ in
            try await store.save(Data("x".utf8), to: "docs/a.txt")
            let insert = { (path: String) in
                _ = try await store.client.query(
                    """
                    INSERT INTO damaged_files (namespace_hash, namespace, path, size, content_id)
                    VALUES (sha256(convert_to(\(store.namespace), 'UTF8')), \(store.namespace), \(path), 0,
                            gen_random_uuid())
                    """
                )
            }
            try await insert("docs//twice")
            try await insert("../escape")
            try await insert("cafe\u{301}.txt")
            for folder in ["docs", ""] {
                let error = await #expect(throws: FileStoreError.self) { try await store.list(in: folder) }
                guard case .listFailed(let named, .other(let message)) = error else {
                    Issue.record("expected listFailed for '\(folder)', got \(String(describing: error))")
                    continue
                }
                #expect(named == folder)
                #expect(message.contains("not valid"))
            }
            #expect(try await store.load("docs/a.txt") == Data("x".utf8))
        }
    }
}
