import ForgeSQLite
import Foundation
import Testing

/// A `SQLiteFileStore` kept as a bounded cache evicts the files the in-memory twin evicts for the same calls, and stays
/// within its budget after every save.
struct SQLiteFileStoreCacheTests {
    @Test(arguments: [7, 42, 1_234] as [UInt64])
    func theSQLiteStoreAndTheTwinEvictTheSameFiles(seed: UInt64) async throws {
        try await withTemporaryFolder { folder in
            let sqlite = SQLiteFileStore(
                database: SQLiteDatabase(fileURL: folder.appendingPathComponent("cache.sqlite")),
                namespace: "cache"
            )
            .boundedCache(maxBytes: 100, maxFiles: 6)
            let twin = InMemoryFileStore().boundedCache(maxBytes: 100, maxFiles: 6)
            var generator = SplitMix64(seed: seed)
            var calls: [String] = []
            for step in 0..<200 {
                let path = "f\(Int.random(in: 0..<12, using: &generator))"
                if Int.random(in: 0..<3, using: &generator) < 2 {
                    let data = Data(repeating: UInt8(step % 256), count: Int.random(in: 0...40, using: &generator))
                    calls.append("save \(path) \(data.count)")
                    try await twin.save(data, to: path)
                    try await sqlite.save(data, to: path)
                    #expect(try await sqlite.totalSize() <= 100)
                } else {
                    calls.append("load \(path)")
                    #expect((try? await twin.load(path)) == (try? await sqlite.load(path)))
                }
                #expect(try await twin.list(in: "") == sqlite.list(in: ""), "after \(calls)")
            }
        }
    }
}
