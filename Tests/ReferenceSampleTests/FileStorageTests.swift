// forgestorage-testing.md, "FileStorageTests.swift"
import Testing
import ForgeFileStore

struct FileStorageTests {
    let store = InMemoryFileStore()

    @Test func saveAndLoad() async throws {
        let data = Data("hello world".utf8)
        try await store.save(data, to: "notes/test.txt")

        let loaded = try await store.load("notes/test.txt")
        #expect(String(data: loaded, encoding: .utf8) == "hello world")
    }

    @Test func existsReturnsTrueAfterSave() async throws {
        #expect(!store.exists("file.txt"))
        try await store.save(Data("x".utf8), to: "file.txt")
        #expect(store.exists("file.txt"))
    }

    @Test func deleteRemovesFile() async throws {
        try await store.save(Data("x".utf8), to: "file.txt")
        try await store.delete("file.txt")
        #expect(!store.exists("file.txt"))
    }

    @Test func loadThrowsWhenFileNotFound() async {
        await #expect(throws: FileStoreError.self) {
            try await store.load("nonexistent.txt")
        }
    }

    @Test func overwriteFalseThrowsWhenFileExists() async throws {
        try await store.save(Data("a".utf8), to: "file.txt")
        await #expect(throws: FileStoreError.self) {
            try await store.save(Data("b".utf8), to: "file.txt", overwrite: false)
        }
    }

    @Test func listFiles() async throws {
        try await store.save(Data("a".utf8), to: "docs/a.txt")
        try await store.save(Data("b".utf8), to: "docs/b.txt")
        try await store.save(Data("c".utf8), to: "other/c.txt")

        let docs = try await store.list(in: "docs")
        #expect(docs.count == 2)
    }

    @Test func deleteAllClearsEverything() async throws {
        try await store.save(Data("a".utf8), to: "file1.txt")
        try await store.save(Data("b".utf8), to: "file2.txt")
        try await store.deleteAll()

        let total = try await store.totalSize()
        #expect(total == 0)
    }
}
