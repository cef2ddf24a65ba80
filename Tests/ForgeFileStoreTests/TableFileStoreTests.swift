import ForgeFileStore
import ForgeStorageTesting
import Foundation
import Testing

/// A store that implements only ``FileBackend`` (``TableFileStore``, one file) gets the whole typed API from the
/// library and passes both whole conformance suites, with the path rules, errors, listings and helpers it did not
/// write.
struct TableFileStoreTests {
    @Test func passesTheConformanceSuite() async {
        await FileStoringConformance.run(makeSubject: {
            let table = TableFileStore.Table()
            return FileStoringConformance.Subject(
                TableFileStore(table: table, namespace: "store"),
                reopen: { TableFileStore(table: table, namespace: "store") },
                neighbour: TableFileStore(table: table, namespace: "neighbour")
            )
        })
    }

    @Test func passesTheAsyncConformanceSuite() async {
        await AsyncFileStoringConformance.run(makeSubject: {
            let table = TableFileStore.Table()
            return AsyncFileStoringConformance.Subject(
                TableFileStore(table: table, namespace: "store"),
                reopen: { TableFileStore(table: table, namespace: "store") },
                neighbour: TableFileStore(table: table, namespace: "neighbour")
            )
        })
    }

    /// `save(_:to:)`, `saveJSON`, `loadJSON` and `loadJSONIfExists` through `AsyncFileStoring` alone, as a service
    /// written against the server protocol calls them.
    @Test func theAsyncFormHasTheHelpersOfTheSyncForm() async throws {
        let store: any AsyncFileStoring = TableFileStore(table: TableFileStore.Table(), namespace: "store")
        try await store.save(Data("hello".utf8), to: "notes/today.txt")
        #expect(try await store.load("notes/today.txt") == Data("hello".utf8))

        try await store.saveJSON(["name": "Ada"], to: "profile.json")
        #expect(try await store.loadJSON("profile.json", as: [String: String].self) == ["name": "Ada"])
        let missing = try await store.loadJSONIfExists("missing.json", as: [String: String].self)
        #expect(missing == nil)
        await #expect(throws: FileStoreError.alreadyExists(path: "profile.json")) {
            try await store.saveJSON(["name": "Bob"], to: "profile.json", overwrite: false)
        }
        await #expect {
            _ = try await store.loadJSON("notes/today.txt", as: [String: String].self)
        } throws: { error in
            guard case FileStoreError.decodingFailed(let path, _) = error else { return false }
            return path == "notes/today.txt"
        }
    }

    /// The errors a backend throws name the path as the caller spelled it, not the canonical spelling the backend
    /// was given.
    @Test func errorsNameThePathAsTheCallerSpelledIt() async throws {
        let store = TableFileStore(table: TableFileStore.Table(), namespace: "store")
        let decomposed = "cafe\u{301}.txt"
        try await store.save(Data("1".utf8), to: "caf\u{E9}.txt")
        await #expect {
            try await store.save(Data("2".utf8), to: decomposed, overwrite: false)
        } throws: { error in
            guard case FileStoreError.alreadyExists(let path) = error else { return false }
            return path.unicodeScalars.elementsEqual(decomposed.unicodeScalars)
        }
        await #expect {
            try await store.save(Data("3".utf8), to: decomposed + "/inside")
        } throws: { error in
            guard case FileStoreError.writeFailed(let path, .parentIsFile) = error else { return false }
            return path.unicodeScalars.elementsEqual((decomposed + "/inside").unicodeScalars)
        }
    }
}
