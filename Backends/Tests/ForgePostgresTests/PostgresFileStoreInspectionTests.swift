import ForgeFileStore
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

/// Reading a files table without knowing its paths: every file with its size and date, and the namespaces.
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
