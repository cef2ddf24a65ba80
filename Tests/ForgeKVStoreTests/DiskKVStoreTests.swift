import ForgeCore
import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeKVStore

struct DiskKVStoreTests {
    @Test func eachKeyIsOneJSONFileInTheNamespaceFolder() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskKVStore(directory: .custom(folder), namespace: "taskflow-settings")
            try store.set(KVKey<Int>("taskflow.taskCount"), value: 42)
            try store.set(KVKey<String>("taskflow.projectName"), value: "TaskFlow")

            let namespaceFolder = folder.appendingPathComponent("taskflow-settings")
            #expect(store.folderURL.path == namespaceFolder.path)
            let names = try FileManager.default.contentsOfDirectory(atPath: namespaceFolder.path).sorted()
            #expect(names == ["taskflow.project^name.json", "taskflow.task^count.json"])
            let data = try Data(contentsOf: namespaceFolder.appendingPathComponent("taskflow.task^count.json"))
            #expect(String(decoding: data, as: UTF8.self) == "42")
            #expect(
                store.fileURL(for: KVKey<Int>("taskflow.taskCount"))?.lastPathComponent == "taskflow.task^count.json"
            )
        }
    }

    @Test func valuesPersistAcrossInstances() async throws {
        try await withTemporaryFolder { folder in
            let settings = TaskSettings(
                theme: "dark",
                fontSize: 12,
                tags: ["x"],
                reminder: Date(timeIntervalSince1970: 7)
            )
            try DiskKVStore(directory: .custom(folder), namespace: "app").set(KVKey<TaskSettings>("s"), value: settings)
            let reopened = DiskKVStore(directory: .custom(folder), namespace: "app")
            #expect(reopened.get(KVKey<TaskSettings>("s")) == settings)
        }
    }

    @Test func namespacesAreIsolated() async throws {
        try await withTemporaryFolder { folder in
            let first = DiskKVStore(directory: .custom(folder), namespace: "first")
            let second = DiskKVStore(directory: .custom(folder), namespace: "second")
            let key = KVKey<Int>("shared.key")
            try first.set(key, value: 1)
            try second.set(key, value: 2)
            #expect(first.get(key) == 1)
            #expect(second.get(key) == 2)
            try first.removeAll()
            #expect(first.get(key) == nil)
            #expect(second.get(key) == 2)
        }
    }

    @Test(arguments: ["../escape", "/etc", "", ".", "..", "a/b", "Settings", "settings"])
    func hostileNamespacesStayInsideTheDirectory(namespace: String) async throws {
        try await withTemporaryFolder { folder in
            let store = DiskKVStore(directory: .custom(folder), namespace: namespace)
            try store.set(KVKey<Int>("k"), value: 1)
            #expect(store.folderURL.deletingLastPathComponent().path == folder.path)
            let entries = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(entries == [store.folderURL.lastPathComponent])
            #expect(!store.folderURL.lastPathComponent.hasPrefix("."))
        }
    }

    @Test func hostileKeysGetDistinctSafeFileNamesInsideTheNamespace() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskKVStore(directory: .custom(folder), namespace: "hostile")
            for (index, key) in hostileKeys.enumerated() {
                try store.set(KVKey<Int>(key), value: index)
            }
            // Nothing was written outside the namespace folder.
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["hostile"])
            let names = try FileManager.default.contentsOfDirectory(atPath: store.folderURL.path)
            #expect(names.count == hostileKeys.count)
            // Distinct even on a volume that folds case.
            #expect(Set(names.map { $0.lowercased() }).count == hostileKeys.count)
            for name in names {
                #expect(name.utf8.count <= 255)
                #expect(!name.hasPrefix("."))
                #expect(name.hasSuffix(".json"))
                #expect(name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") })
            }
        }
    }

    @Test func veryLongKeysSharingAPrefixRoundTripIndependently() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskKVStore(directory: .custom(folder), namespace: "long")
            let prefix = String(repeating: "a", count: 600)
            let keys = (0..<5).map { KVKey<Int>(prefix + "\($0)") } + [KVKey<Int>(String(repeating: "🔥", count: 600))]
            for (index, key) in keys.enumerated() { try store.set(key, value: index) }
            for (index, key) in keys.enumerated() {
                #expect(store.get(key) == index)
                #expect(store.contains(key))
                #expect(store.fileURL(for: key) == nil)
            }
            try store.remove(keys[2])
            #expect(!store.contains(keys[2]))
            #expect(store.get(keys[3]) == 3)
            #expect(store.get(KVKey<Int>(prefix)) == nil)
        }
    }

    @Test func longKeysWhoseHashesCollideTakeSeparateSlots() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskKVStore(directory: .custom(folder), namespace: "collide")
            let key = KVKey<String>(String(repeating: "x", count: 400))
            guard case .hashed(let names) = KeyFileName(key: key.key) else {
                Issue.record("a 400-character key should get hashed names")
                return
            }
            // Plant another key's file in the first slot, as a hash collision would.
            let planted = #"{"key":"some other key","value":"theirs"}"#
            try FileManager.default.createDirectory(at: store.folderURL, withIntermediateDirectories: true)
            try Data(planted.utf8).write(to: store.folderURL.appendingPathComponent(names[0]))

            #expect(store.get(key) == nil)
            try store.set(key, value: "mine")
            #expect(store.get(key) == "mine")
            let firstSlot = try String(contentsOf: store.folderURL.appendingPathComponent(names[0]), encoding: .utf8)
            #expect(firstSlot == planted)
            #expect(FileManager.default.fileExists(atPath: store.folderURL.appendingPathComponent(names[1]).path))
        }
    }

    @Test func corruptOrWrongTypeFilesReadAsNilAndTheNextSetRepairsThem() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskKVStore(directory: .custom(folder), namespace: "corrupt")
            let key = KVKey<TaskSettings>("settings")
            let count = KVKey<Int>("count")
            try store.set(count, value: 1)
            let settingsFile = try #require(store.fileURL(for: key))
            let countFile = try #require(store.fileURL(for: count))
            try Data("{\"theme\": \"dark\", \"fontSi".utf8).write(to: settingsFile)
            try Data("\"not a number\"".utf8).write(to: countFile)
            #expect(store.get(key) == nil)
            #expect(store.get(count) == nil)
            try Data().write(to: countFile)
            #expect(store.get(count) == nil)
            try Data([0xFF, 0x00, 0xFE]).write(to: countFile)
            #expect(store.get(count) == nil)

            let settings = TaskSettings(theme: "light", fontSize: 10, tags: [])
            try store.set(key, value: settings)
            try store.set(count, value: 2)
            #expect(store.get(key) == settings)
            #expect(store.get(count) == 2)
        }
    }

    @Test func aFolderInPlaceOfAKeyFileReadsAsNil() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskKVStore(directory: .custom(folder), namespace: "odd")
            let key = KVKey<Int>("k")
            try FileManager.default.createDirectory(
                at: try #require(store.fileURL(for: key)),
                withIntermediateDirectories: true
            )
            #expect(store.get(key) == nil)
            #expect(!store.contains(key))
        }
    }

    @Test func writesLeaveNoTemporaryFiles() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskKVStore(directory: .custom(folder), namespace: "clean")
            for index in 0..<50 {
                try store.set(KVKey<Int>("k\(index % 5)"), value: index)
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: store.folderURL.path)
            #expect(names.count == 5)
            #expect(names.allSatisfy { !$0.contains(TemporaryName.marker) })
        }
    }

    @Test func aFailedWriteThrowsWriteFailedNamingTheKeyAndKeepsTheOldValue() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskKVStore(directory: .custom(folder), namespace: "fails")
            let key = KVKey<Int>("count")
            try store.set(key, value: 1)
            // Make the namespace folder unwritable in a way that also holds for root: replace it by a file.
            let moved = folder.appendingPathComponent("moved")
            try FileManager.default.moveItem(at: store.folderURL, to: moved)
            try Data("x".utf8).write(to: store.folderURL)
            let error = #expect(throws: KVStoreError.self) { try store.set(key, value: 2) }
            #expect(error?.key == "count")
            if case .writeFailed = error {
            } else {
                Issue.record("expected writeFailed, got \(String(describing: error))")
            }
            try FileManager.default.removeItem(at: store.folderURL)
            try FileManager.default.moveItem(at: moved, to: store.folderURL)
            #expect(store.get(key) == 1)
        }
    }

    @Test func leftoversOfCrashedProcessesAreRemovedWhenTheFirstStoreIsCreated() async throws {
        try await withTemporaryFolder { folder in
            let namespaceFolder = folder.appendingPathComponent("orphans")
            try FileManager.default.createDirectory(at: namespaceFolder, withIntermediateDirectories: true)
            try Data("1".utf8).write(to: namespaceFolder.appendingPathComponent("k.json"))
            let deadPID = try deadProcessID()
            let marker = TemporaryName.marker
            let orphan = namespaceFolder.appendingPathComponent(".k.json\(marker)\(deadPID)-abc")
            let live = namespaceFolder.appendingPathComponent(".k.json\(marker)\(getpid())-abc")
            // What a removeAll that crashed between its rename and its deletion leaves beside the folder.
            let trash = folder.appendingPathComponent(".orphans\(marker)\(deadPID)-def")
            try Data("torn".utf8).write(to: orphan)
            try Data("in flight".utf8).write(to: live)
            try FileManager.default.createDirectory(at: trash, withIntermediateDirectories: true)
            try Data("2".utf8).write(to: trash.appendingPathComponent("old.json"))

            let store = DiskKVStore(directory: .custom(folder), namespace: "orphans")
            await StoreFolder.leftoverSweepsFinished()
            #expect(!FileManager.default.fileExists(atPath: orphan.path))
            #expect(!FileManager.default.fileExists(atPath: trash.path))
            #expect(FileManager.default.fileExists(atPath: live.path))
            #expect(store.get(KVKey<Int>("k")) == 1)
        }
    }

    @Test func removeAllLeavesOtherFilesInTheDirectoryAlone() async throws {
        try await withTemporaryFolder { folder in
            let bystander = folder.appendingPathComponent("bystander.json")
            try Data("1".utf8).write(to: bystander)
            let store = DiskKVStore(directory: .custom(folder), namespace: "mine")
            try store.set(KVKey<Int>("k"), value: 1)
            try store.removeAll()
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["bystander.json"])
        }
    }

    @Test func concurrentWritesToOneKeyLeaveOneCompleteValue() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskKVStore(directory: .custom(folder), namespace: "race")
            let key = KVKey<[Int]>("list")
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<8 {
                    group.addTask {
                        for round in 0..<20 {
                            try? store.set(key, value: Array(repeating: task * 1000 + round, count: 500))
                            if let read = store.get(key) {
                                #expect(read.count == 500 && Set(read).count == 1)
                            }
                        }
                    }
                }
            }
            let final = try #require(store.get(key))
            #expect(final.count == 500 && Set(final).count == 1)
            let names = try FileManager.default.contentsOfDirectory(atPath: store.folderURL.path)
            #expect(names == ["list.json"])
        }
    }

    @Test func namedDirectoriesResolveToUserFolders() {
        let support = StorageDirectory.applicationSupport.resolvedURL().path
        let caches = StorageDirectory.caches.resolvedURL().path
        let documents = StorageDirectory.documents.resolvedURL().path
        #expect(Set([support, caches, documents]).count == 3)
        #if os(Linux)
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        let environment = ProcessInfo.processInfo.environment
        #expect(support == (environment["XDG_DATA_HOME"] ?? home + "/.local/share"))
        #expect(caches == (environment["XDG_CACHE_HOME"] ?? home + "/.cache"))
        #endif
    }

    /// The id of a process that has exited.
    private func deadProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }
}

extension DiskKVStoreTests {
    @Test func removeAllEmptiesANamespaceFolderThatIsASymbolicLink() async throws {
        try await withTemporaryFolder { folder in
            let real = folder.appendingPathComponent("real")
            try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent("linked"),
                withDestinationURL: real
            )
            let store = DiskKVStore(directory: .custom(folder), namespace: "linked")
            try store.set(KVKey<Int>("k"), value: 1)
            try store.removeAll()
            #expect(store.get(KVKey<Int>("k")) == nil)
            #expect(try FileManager.default.contentsOfDirectory(atPath: real.path).isEmpty)
            try store.set(KVKey<Int>("k"), value: 2)
            #expect(FileManager.default.fileExists(atPath: real.appendingPathComponent("k.json").path))
        }
    }
}

extension DiskKVStoreTests {
    @Test func aLinkedKeyFileIsNotReadListedOrFollowedAndRemoveAllRemovesOnlyTheLink() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskKVStore(directory: .custom(folder), namespace: "settings")
            let key = KVKey<String>("token")
            try store.set(key, value: "inside")
            let outside = folder.appendingPathComponent("outside.json")
            try Data(#""contents of a file outside the store""#.utf8).write(to: outside)
            let keyFile = try #require(store.fileURL(for: key))
            try FileManager.default.removeItem(at: keyFile)
            try FileManager.default.createSymbolicLink(at: keyFile, withDestinationURL: outside)

            #expect(store.get(key) == nil)
            #expect(!store.contains(key))
            #expect(((try? store.keys()) ?? []).isEmpty)
            #expect(store.rawJSON(forKey: key.key) == nil)

            try store.removeAll()
            #expect(try Data(contentsOf: outside) == Data(#""contents of a file outside the store""#.utf8))
            try store.set(key, value: "new")
            #expect(store.get(key) == "new")
            #expect(try Data(contentsOf: outside) == Data(#""contents of a file outside the store""#.utf8))
        }
    }

    @Test func aSetReplacesALinkedKeyFileInsteadOfWritingThroughIt() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskKVStore(directory: .custom(folder), namespace: "settings")
            let key = KVKey<Int>("count")
            try store.set(key, value: 1)
            let outside = folder.appendingPathComponent("outside.json")
            try Data("99".utf8).write(to: outside)
            let keyFile = try #require(store.fileURL(for: key))
            try FileManager.default.removeItem(at: keyFile)
            try FileManager.default.createSymbolicLink(at: keyFile, withDestinationURL: outside)

            try store.set(key, value: 2)
            #expect(store.get(key) == 2)
            #expect(store.contains(key))
            #expect(try Data(contentsOf: outside) == Data("99".utf8))
        }
    }
}
