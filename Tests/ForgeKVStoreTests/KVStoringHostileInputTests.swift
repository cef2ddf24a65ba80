import ForgeCore
import ForgeKVStore
import ForgeTestSupport
import Foundation
import Testing

/// Generated hostile keys and namespaces, and damaged files on disk: nothing escapes, collides or traps.
@Suite("KVStoring with hostile input")
struct KVStoringHostileInputTests {
    @Test(arguments: KVStoreKind.allCases)
    func generatedKeysNeverCollideAndEachReadsItsOwnValue(backend: KVStoreKind) async throws {
        try await backend.withStore { store in
            var generator = SeededGenerator(seed: 0xBAD_C0DE)
            // Keyed as Swift compares strings: canonically equivalent spellings are one key by design.
            var model: [String: Int] = [:]
            for index in 0..<300 {
                let key = HostileNames.string(using: &generator)
                if backend.refusesKeysWithALeadingByteOrderMark, key.hasPrefix("\u{FEFF}") {
                    #expect(throws: KVStoreError.self) { try store.set(KVKey<Int>(key), value: index) }
                    continue
                }
                try store.set(KVKey<Int>(key), value: index)
                model[key] = index
            }
            for (key, value) in model {
                #expect(store.get(KVKey<Int>(key)) == value, "\(key.debugDescription)")
            }
            let removed = Set(model.keys.shuffled(using: &generator).prefix(model.count / 2))
            for key in removed { try store.remove(KVKey<Int>(key)) }
            for (key, value) in model {
                #expect(store.get(KVKey<Int>(key)) == (removed.contains(key) ? nil : value), "\(key.debugDescription)")
            }
        }
    }

    @Test func diskKeysStayInTheNamespaceFolderOneFileEach() async throws {
        try await withTemporaryFolder { base in
            let store = DiskKVStore(directory: .custom(base), namespace: "hostile")
            var generator = SeededGenerator(seed: 0xF01D)
            var keys: Set<String> = []
            for _ in 0..<600 {
                let key = HostileNames.string(using: &generator)
                try store.set(KVKey<String>(key), value: key)
                keys.insert(key)
            }
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: base.path) == [store.folderURL.lastPathComponent]
            )
            let files = try FileManager.default.contentsOfDirectory(atPath: store.folderURL.path)
            #expect(files.count == keys.count)
            for name in files {
                var isFolder: ObjCBool = false
                let path = store.folderURL.appendingPathComponent(name).path
                #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue)
                #expect(!name.hasPrefix(".") && name.hasSuffix(".json"), "\(name.debugDescription)")
            }
        }
    }

    @Test func generatedNamespacesStayInTheBaseFolderAndNeverShareOne() async throws {
        try await withTemporaryFolder { base in
            var generator = SeededGenerator(seed: 0x5A5E)
            var namespaces: Set<String> = []
            for _ in 0..<300 {
                let namespace = HostileNames.string(using: &generator)
                let store = DiskKVStore(directory: .custom(base), namespace: namespace)
                try store.set(KVKey<String>("owner"), value: namespace)
                namespaces.insert(namespace)
                #expect(store.folderURL.deletingLastPathComponent().standardizedFileURL == base.standardizedFileURL)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: base.path).count == namespaces.count)
            for namespace in namespaces {
                let store = DiskKVStore(directory: .custom(base), namespace: namespace)
                #expect(store.get(KVKey<String>("owner")) == namespace, "\(namespace.debugDescription)")
            }
        }
    }

    @Test(arguments: [
        "settings.profile", String(repeating: "long.key.", count: 40),
    ])
    func damagedFilesReadAsNilNeverTrapAndTheNextSetRepairsThem(key name: String) async throws {
        try await withTemporaryFolder { base in
            let store = DiskKVStore(directory: .custom(base), namespace: "damaged")
            let key = KVKey<Profile>(name)
            let profile = Profile(name: "Ada", scores: [3, 1, 4, 1, 5], settings: ["theme": "dark"])
            try store.set(key, value: profile)
            let file = try #require(try Self.onlyFile(in: store))
            let whole = try Data(contentsOf: file)
            var generator = SeededGenerator(seed: 0x7A7E)

            var damaged: [Data] = (0..<whole.count).map { whole.prefix($0) }
            damaged += (0..<40).map { _ in Data(generator.bytes(1...300)) }
            damaged += ["null", "[]", "{}", "42", "\"text\"", "{\"key\": 1, \"value\": 2}"].map { Data($0.utf8) }
            for bytes in damaged {
                try bytes.write(to: file)
                #expect(store.get(key) == nil, "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
                try store.set(key, value: profile)
                #expect(store.get(key) == profile)
            }

            try store.set(KVKey<Int>(name), value: 42)
            #expect(store.get(key) == nil)
            #expect(store.get(KVKey<Int>(name)) == 42)
            try store.set(key, value: profile)
            #expect(store.get(key) == profile)
        }
    }

    @Test func aFolderInPlaceOfAKeysFileIsATypedWriteErrorAndKeepsOtherKeys() async throws {
        try await withTemporaryFolder { base in
            let store = DiskKVStore(directory: .custom(base), namespace: "damaged")
            let key = KVKey<Int>("blocked")
            try store.set(KVKey<Int>("other"), value: 1)
            let file = try #require(store.fileURL(for: key))
            try ForeignFiles.createFolder(atPath: file.path)
            #expect(store.get(key) == nil)
            #expect(!store.contains(key))
            #expect(throws: KVStoreError.self) { try store.set(key, value: 2) }
            #expect(store.get(KVKey<Int>("other")) == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: store.folderURL.path).count == 2)
        }
    }

    /// The one file a store's folder holds.
    private static func onlyFile(in store: DiskKVStore) throws -> URL? {
        let names = try FileManager.default.contentsOfDirectory(atPath: store.folderURL.path)
        return names.count == 1 ? names.first.map { store.folderURL.appendingPathComponent($0) } : nil
    }
}

/// A value whose every truncation is invalid JSON.
private struct Profile: Codable, Sendable, Equatable {
    var name: String
    var scores: [Int]
    var settings: [String: String]
}
