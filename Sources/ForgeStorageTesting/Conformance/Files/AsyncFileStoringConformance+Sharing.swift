internal import ForgeFileStore
internal import Foundation
internal import Testing

// The checks that need more than the store: a neighbour on the same backing, a second handle on the same storage.

extension AsyncFileStoringConformance {
    /// The store and its neighbour keep their own files, and `deleteAll` clears the store's alone: every hostile path
    /// of the store, and none of the neighbour's.
    ///
    /// Kills a `deleteAll` that clears the whole backing (the folder of every namespace) rather than the store's part.
    static func deleteAllLeavesANeighboursFilesAlone(_ subject: Subject) async throws {
        let store = subject.store
        let neighbour = try #require(subject.neighbour)
        var theirs = hostileFiles(of: "neighbour")
        theirs["shared.txt"] = Data("theirs".utf8)
        theirs["docs/n.txt"] = Data("n".utf8)
        try await save(theirs, in: neighbour)
        try await store.save(Data("mine".utf8), to: "shared.txt")
        try await store.save(Data("s".utf8), to: "docs/s.txt")
        #expect(try await store.list(in: "docs") == ["docs/s.txt"])
        #expect(try await neighbour.load("shared.txt") == Data("theirs".utf8))
        try await save(hostileFiles(of: "store"), in: store)

        try await store.deleteAll()
        #expect(try await !store.exists("shared.txt"))
        #expect(try await !store.exists("docs/s.txt"))
        try await expectNoHostileFile(in: store, "the store")
        try await expectExactly(theirs, in: neighbour)

        try await store.save(Data("again".utf8), to: "again.txt")
        try await neighbour.deleteAll()
        #expect(try await store.list(in: "") == ["again.txt"])
    }

    /// A second handle on the same storage sees every save, replacement and delete of the first at once, and the
    /// first sees the second's, the second's `deleteAll` of every hostile path included.
    ///
    /// Kills a store that keeps what it loaded or saved in a cache of its own.
    static func aSecondHandleSeesEveryChangeAtOnce(_ subject: Subject) async throws {
        let store = subject.store
        let reopen = try #require(subject.reopen)
        let other = try await reopen()
        try await store.save(Data("1".utf8), to: "docs/a.txt")
        #expect(try await other.exists("docs/a.txt"))
        #expect(try await other.load("docs/a.txt") == Data("1".utf8))
        try await other.save(Data("22".utf8), to: "docs/a.txt")
        #expect(try await store.load("docs/a.txt") == Data("22".utf8))
        try await store.save(Data("333".utf8), to: "docs/a.txt")
        #expect(try await other.load("docs/a.txt") == Data("333".utf8))
        #expect(try await other.list(in: "docs") == ["docs/a.txt"])
        #expect(try await other.totalSize() == 3)

        try await other.save(Data("b".utf8), to: "b.txt", overwrite: false)
        await #expect(throws: FileStoreError.alreadyExists(path: "b.txt")) {
            try await store.save(Data("c".utf8), to: "b.txt", overwrite: false)
        }
        try await store.delete("docs/a.txt")
        #expect(try await !other.exists("docs/a.txt"))
        await #expect(throws: FileStoreError.notFound(path: "docs/a.txt")) { try await other.load("docs/a.txt") }
        try await save(hostileFiles(of: "store"), in: store)
        try await other.deleteAll()
        #expect(try await !store.exists("b.txt"))
        await #expect(throws: FileStoreError.notFound(path: "b.txt")) { try await store.load("b.txt") }
        try await expectNoHostileFile(in: store, "the first handle")
        try await expectNoHostileFile(in: other, "the second handle")
    }
}
