import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeKVStore

/// `keys()`, `rawJSON(forKey:)` and `namespace(forFolderNamed:)`: reading a store without its keys.
struct DiskKVStoreInspectionTests {
    @Test func keysListsEveryKeySortedWithAnyCharacters() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskKVStore(directory: .custom(folder), namespace: "settings")
            let keys = ["taskflow.projectName", "../x", "", "é/ü Key", ".hidden"]
            for key in keys {
                try store.set(KVKey<Int>(key), value: 1)
            }
            #expect((try? store.keys()) ?? [] == keys.sorted())
        }
    }

    @Test func keysReadsLongKeysFromTheirFiles() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskKVStore(directory: .custom(folder), namespace: "settings")
            let long = String(repeating: "Long key ", count: 60)
            try store.set(KVKey<String>(long), value: "v")
            try store.set(KVKey<Int>("short"), value: 2)
            #expect((try? store.keys()) ?? [] == [long, "short"].sorted())
            #expect(store.rawJSON(forKey: long).map { String(decoding: $0, as: UTF8.self) } == "\"v\"")
        }
    }

    @Test func keysSkipsFilesNoKeyProduces() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskKVStore(directory: .custom(folder), namespace: "settings")
            try store.set(KVKey<Int>("kept"), value: 1)
            try Data("x".utf8).write(to: store.folderURL.appendingPathComponent("notes.txt"))
            try Data("1".utf8).write(to: store.folderURL.appendingPathComponent("Upper.json"))
            try FileManager.default.createDirectory(
                at: store.folderURL.appendingPathComponent("sub.json"),
                withIntermediateDirectories: true
            )
            #expect((try? store.keys()) ?? [] == ["kept"])
        }
    }

    @Test func aMissingFolderHasNoKeys() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskKVStore(directory: .custom(folder), namespace: "never-written")
            #expect(((try? store.keys()) ?? []).isEmpty)
            #expect(store.rawJSON(forKey: "any") == nil)
        }
    }

    @Test func rawJSONReturnsTheBytesAsStoredEvenWhenCorrupt() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskKVStore(directory: .custom(folder), namespace: "settings")
            try store.set(KVKey<[String: Int]>("counts"), value: ["b": 2, "a": 1])
            #expect(store.rawJSON(forKey: "counts").map { String(decoding: $0, as: UTF8.self) } == #"{"a":1,"b":2}"#)

            let key = KVKey<Int>("broken")
            try store.set(key, value: 1)
            let url = try #require(store.fileURL(for: key))
            try Data("{not json".utf8).write(to: url)
            #expect(store.get(key) == nil)
            #expect(store.rawJSON(forKey: "broken") == Data("{not json".utf8))
            #expect((try? store.keys()) ?? [] == ["broken", "counts"])
        }
    }

    @Test func namespaceForFolderNamedReversesTheFolderName() async throws {
        try await withTemporaryFolder { folder in
            for namespace in ["settings", "TaskFlow Settings", "../up", "é"] {
                let store = DiskKVStore(directory: .custom(folder), namespace: namespace)
                #expect(DiskKVStore.namespace(forFolderNamed: store.folderURL.lastPathComponent) == namespace)
            }
            #expect(DiskKVStore.namespace(forFolderNamed: "My App") == nil)
            #expect(DiskKVStore.namespace(forFolderNamed: "bad%zz") == nil)
        }
    }
}
