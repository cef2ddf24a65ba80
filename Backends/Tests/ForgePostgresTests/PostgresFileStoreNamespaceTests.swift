import ForgeFileStore
import ForgePostgres
import Foundation
import Testing

/// Stores on one table under different namespaces share nothing: not their files, listings, sizes or deleteAll.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresFileStoreNamespaceTests {
    @Test func namespacesOfOneTableShareNothing() async throws {
        try await TestServer.withFileStores { store, _ in
            // A namespace that holds the characters the store escapes, and one that is a prefix of the other.
            let other = PostgresFileStore(client: store.client, namespace: store.namespace + "\\\u{0}x")
            let prefix = PostgresFileStore(client: store.client, namespace: String(store.namespace.dropLast()))
            try await store.save(Data("mine".utf8), to: "docs/a.txt")
            try await other.save(Data("theirs, longer".utf8), to: "docs/a.txt")
            try await other.save(Data("b".utf8), to: "docs/b.txt")
            try await prefix.save(Data("p".utf8), to: "docs")

            #expect(try await store.load("docs/a.txt") == Data("mine".utf8))
            #expect(try await other.load("docs/a.txt") == Data("theirs, longer".utf8))
            #expect(try await store.list(in: "docs") == ["docs/a.txt"])
            #expect(try await other.list(in: "docs") == ["docs/a.txt", "docs/b.txt"])
            #expect(try await prefix.list(in: "") == ["docs"])
            #expect(try await store.totalSize() == 4)
            #expect(try await other.totalSize() == 15)
            #expect(try await !store.exists("docs/b.txt"))

            try await other.deleteAll()
            #expect(try await other.list(in: "").isEmpty)
            #expect(try await store.load("docs/a.txt") == Data("mine".utf8))
            #expect(try await prefix.load("docs") == Data("p".utf8))
            try await prefix.deleteAll()
            #expect(try await store.list(in: "") == ["docs/"])
        }
    }
}
