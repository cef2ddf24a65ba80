import ForgeFileStore
import Foundation
import Testing

/// What only the in-memory store has.
struct InMemoryFileStoreTests {
    @Test func pathsListsEveryFileSorted() async throws {
        let store = InMemoryFileStore()
        try await store.save(Data("b".utf8), to: "b/2.txt")
        try await store.save(Data("a".utf8), to: "a.txt")
        #expect(store.paths == ["a.txt", "b/2.txt"])
    }

    @Test func storedDataIsACopy() async throws {
        let store = InMemoryFileStore()
        var data = Data("before".utf8)
        try await store.save(data, to: "file.txt")
        data.append(contentsOf: Data(" and after".utf8))
        #expect(try await store.load("file.txt") == Data("before".utf8))
    }

    @Test func instancesShareNothing() async throws {
        let first = InMemoryFileStore()
        try await first.save(Data("x".utf8), to: "file.txt")
        #expect(!InMemoryFileStore().exists("file.txt"))
    }
}
