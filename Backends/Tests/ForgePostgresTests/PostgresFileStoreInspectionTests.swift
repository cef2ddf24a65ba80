import ForgeFileStore
import ForgePostgres
import ForgeStorageTesting
import Foundation
import PostgresNIO
import Testing

/// Reading a files table without knowing its paths: every file with its size and date, as the in-memory twin reports
/// them, and the namespaces.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresFileStoreInspectionTests {
    @Test func allFilesAreListedWithTheirSizesAndTheTimeOfTheirLastSave() async throws {
        try await TestServer.withFileStores { store, _ in
            let before = Date()
            try await store.save(Data("hello".utf8), to: "docs/b.txt")
            try await store.save(Data(), to: "a.txt")
            try await store.save(Data("replaced".utf8), to: "docs/b.txt")
            let files = try await store.allFiles()
            #expect(files.map(\.path) == ["a.txt", "docs/b.txt"])
            #expect(files.map(\.size) == [0, 8])
            // The server's clock and this process's may differ a little; a save is dated near the test's time.
            for file in files { #expect(abs(file.modificationDate.timeIntervalSince(before)) < 60) }
        }
    }

    @Test func fileInfoGivesTheSizeAndTheTimeOfTheLastSaveOfOneFile() async throws {
        try await TestServer.withFileStores { store, _ in
            try await store.save(Data("hello".utf8), to: "docs/caf\u{65}\u{301}.txt")
            let info = try #require(try await store.fileInfo(at: "docs/caf\u{E9}.txt"))
            #expect(info.path.unicodeScalars.elementsEqual("docs/caf\u{E9}.txt".unicodeScalars))
            #expect(info.size == 5)
            #expect(try await store.allFiles() == [info])
            #expect(try await store.fileInfo(at: "docs") == nil)
            #expect(try await store.fileInfo(at: "missing.txt") == nil)
            await #expect(throws: FileStoreError.self) { try await store.fileInfo(at: "../escape") }
        }
    }

    /// The one statement of `allFiles()` answers what the library's walk of the folders answers (the walk is what a
    /// fault-injecting wrapper runs), and what the twin answers for the same saves.
    @Test func theOneStatementAnswersAsTheWalkAndTheTwinDo() async throws {
        try await TestServer.withFileStores { store, _ in
            let twin = InMemoryFileStore()
            for files in [store, twin] as [any AsyncFileStoring] {
                try await files.save(Data("12345".utf8), to: "b/c/d.txt")
                try await files.save(Data("123456".utf8), to: "b/c/d.txt")
                try await files.save(Data(), to: "b/e.txt")
                try await files.save(Data("gone".utf8), to: "a/gone.txt")
                try await files.delete("a/gone.txt")
                try await files.save(Data("zz".utf8), to: "z")
            }
            let files = try await store.allFiles()
            #expect(try await store.injectingFaults().allFiles() == files)
            let expected = try await twin.allFiles()
            #expect(files.map(\.path) == expected.map(\.path))
            #expect(files.map(\.size) == expected.map(\.size))
        }
    }

    @Test func namespacesAreListedAsStoresNameThem() async throws {
        let table = "forge_files_namespaces_test"
        try await TestServer.withClient { client in
            let names = ["a\\b", "café", "x\0y"]
            let stores = names.map { PostgresFileStore(client: client, namespace: $0, tableName: table) }
            for store in stores { try await store.save(Data("1".utf8), to: "f") }
            let listed = try await PostgresFileStore.namespaces(client: client, tableName: table)
            for store in stores { try await store.deleteAll() }
            #expect(listed == names.sorted())
        }
    }

    @Test func aTableThatDoesNotExistHoldsNoNamespaceAndIsNotCreated() async throws {
        try await TestServer.withClient { (client) async throws in
            let table = "forge_files_never_made_\(UInt32.random(in: 0...UInt32.max))"
            #expect(try await PostgresFileStore.namespaces(client: client, tableName: table).isEmpty)
            #expect(try await TestServer.tableExists(table, client: client) == false)
        }
    }
}
