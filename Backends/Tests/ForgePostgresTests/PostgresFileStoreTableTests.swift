import ForgeFileStore
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

/// The store's tables: made by `prepare()` or the first call, under any plain name, a reserved word included.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresFileStoreTableTests {
    @Test func aNameSQLReservesIsATableNameLikeAnyOther() async throws {
        try await TestServer.withFileStores(tableName: "order") { store, second in
            try await store.prepare()
            try await store.save(Data("x".utf8), to: "a/b.txt")
            #expect(try await second.load("a/b.txt") == Data("x".utf8))
            #expect(try await second.list(in: "a") == ["a/b.txt"])
            try await second.delete("a/b.txt")
            #expect(try await store.list(in: "").isEmpty)
        }
    }

    @Test func prepareMakesBothTablesAndAnotherPrepareChangesNothing() async throws {
        let table = "prepared_\(UUID().uuidString.prefix(8).lowercased())"
        try await TestServer.withFileStores(tableName: table) { store, second in
            try await store.prepare()
            try await second.prepare()
            let query: PostgresQuery = """
                SELECT count(*) FROM pg_class WHERE relname IN (\(table), \(table + "_chunks")) AND relkind = 'r'
                """
            var counts: [Int64] = []
            for try await count in try await store.client.query(query).decode(Int64.self) { counts.append(count) }
            #expect(counts == [2])
            #expect(try await store.totalSize() == 0)
        }
    }

    @Test func aTableNameThatIsNotAPlainIdentifierIsRefused() async throws {
        try await TestServer.withClient { client in
            let store = PostgresFileStore(client: client, namespace: "n", tableName: "files; DROP TABLE forge_files")
            let error = await #expect(throws: FileStoreError.self) { try await store.save(Data(), to: "a.txt") }
            #expect(error?.path == "a.txt")
            #expect(error?.reason?.description.contains("not a plain identifier") == true)
            await #expect(throws: PostgresStoreError.self) { try await store.prepare() }
        }
    }
}
