import ForgeFileStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// `boundedCache(maxBytes:maxFiles:)`: the wrapped stores pass both suites with a budget they never reach, remove the
/// least recently used files first, stay within the budget after every save, and evict the same files on the twin as
/// on the disk for the same calls.
struct BoundedFileStoreTests {
    static let roomy = 1 << 30

    @Test func aCacheWithARoomyBudgetPassesBothSuites() async throws {
        await FileStoringConformance.run {
            FileStoringConformance.Subject(InMemoryFileStore().boundedCache(maxBytes: Self.roomy))
        }
        await AsyncFileStoringConformance.run {
            AsyncFileStoringConformance.Subject(InMemoryFileStore().boundedCache(maxBytes: Self.roomy))
        }
        try await withTemporaryFolder { folder in
            await FileStoringConformance.run {
                let namespace = UUID().uuidString
                return FileStoringConformance.Subject(
                    DiskFileStore(directory: .custom(folder), namespace: namespace).boundedCache(maxBytes: Self.roomy),
                    reopen: { DiskFileStore(directory: .custom(folder), namespace: namespace) },
                    neighbour: DiskFileStore(directory: .custom(folder), namespace: namespace + ".neighbour")
                )
            }
        }
    }

    @Test(arguments: FileStoreKind.allCases)
    func aSaveRemovesTheLeastRecentlyUsedFilesFirst(kind: FileStoreKind) async throws {
        try await kind.withBackend { store in
            let cache = bounded(store, maxBytes: 30)
            for name in ["a", "b", "c"] { try await cache.save(Data(repeating: 1, count: 10), to: name) }
            _ = try await cache.load("a")  // a is now used more recently than b and c
            try await cache.save(Data(repeating: 2, count: 10), to: "d")
            #expect(try await cache.list(in: "") == ["a", "c", "d"], "b, used least recently, made room")
            try await cache.save(Data(repeating: 3, count: 20), to: "e")
            #expect(try await cache.list(in: "") == ["d", "e"], "c then a made room for 20 bytes")
            #expect(try await cache.totalSize() == 30)
        }
    }

    @Test(arguments: FileStoreKind.allCases)
    func aFileLargerThanTheBudgetIsRefusedAndRemovesNothing(kind: FileStoreKind) async throws {
        try await kind.withBackend { store in
            let cache = bounded(store, maxBytes: 10)
            try await cache.save(Data(repeating: 1, count: 10), to: "kept")
            await #expect(throws: FileStoreError.writeFailed(path: "big", reason: .outOfSpace)) {
                try await cache.save(Data(repeating: 2, count: 11), to: "big")
            }
            await #expect(throws: FileStoreError.alreadyExists(path: "kept")) {
                try await cache.save(Data(repeating: 3, count: 5), to: "kept", overwrite: false)
            }
            #expect(try await cache.list(in: "") == ["kept"])
        }
    }

    @Test func aFirstSaveThatReplacesAFileCountsTheFilesAlreadyStored() async throws {
        let store = InMemoryFileStore()
        for name in ["a", "b"] { try await store.save(Data(repeating: 1, count: 10), to: name) }
        let cache = store.boundedCache(maxBytes: 20)
        try await cache.save(Data(repeating: 2, count: 15), to: "a")
        #expect(try await cache.list(in: "") == ["a"], "b made room for a's 5 more bytes")
        #expect(try await cache.totalSize() == 15)
    }

    @Test func theCountOfFilesIsBoundedToo() async throws {
        let cache = InMemoryFileStore().boundedCache(maxBytes: Self.roomy, maxFiles: 2)
        for name in ["a", "b", "c"] { try await cache.save(Data("x".utf8), to: "folder/\(name)") }
        #expect(try await cache.list(in: "folder") == ["folder/b", "folder/c"])
        let none = InMemoryFileStore().boundedCache(maxBytes: Self.roomy, maxFiles: 0)
        await #expect(throws: FileStoreError.writeFailed(path: "a", reason: .outOfSpace)) {
            try await none.save(Data("x".utf8), to: "a")
        }
    }

    @Test func aCacheStartsFromTheFilesAlreadyStoredOldestFirst() async throws {
        let store = InMemoryFileStore()
        for name in ["old", "newer", "newest"] { try await store.save(Data(repeating: 1, count: 10), to: name) }
        let cache = bounded(store, maxBytes: 30)
        try await cache.save(Data(repeating: 2, count: 10), to: "fresh")
        #expect(try await cache.list(in: "") == ["fresh", "newer", "newest"], "the oldest file made room")
    }

    @Test(arguments: [7, 42, 1_234])
    func theTwinAndTheDiskEvictTheSameFilesAndStayWithinTheBudget(seed: UInt64) async throws {
        try await withTemporaryFolder { folder in
            let twin = InMemoryFileStore().boundedCache(maxBytes: 100, maxFiles: 6)
            let disk = DiskFileStore(directory: .custom(folder), namespace: "cache")
                .boundedCache(maxBytes: 100, maxFiles: 6)
            var generator = SeededGenerator(seed: seed)
            for _ in 0..<300 {
                let path = "f\(Int.random(in: 0..<12, using: &generator))"
                switch Int.random(in: 0..<10, using: &generator) {
                case 0..<6:
                    let data = Data(repeating: 7, count: Int.random(in: 0...40, using: &generator))
                    try await twin.save(data, to: path)
                    try await disk.save(data, to: path)
                    #expect(try await twin.totalSize() <= 100 && twin.paths.count <= 6)
                case 6..<9:
                    let fromTwin = try? await twin.load(path)
                    let fromDisk = try? await disk.load(path)
                    #expect(fromTwin == fromDisk)
                default:
                    let removedFromTwin = (try? await twin.delete(path)) != nil
                    let removedFromDisk = (try? await disk.delete(path)) != nil
                    #expect(removedFromTwin == removedFromDisk)
                }
                #expect(try await twin.list(in: "") == disk.list(in: ""))
            }
            #expect(try await disk.totalSize() <= 100)
        }
    }
}

/// `store` as a cache of `maxBytes`, for a store known only by its protocols.
private func bounded(_ store: some FileBackend, maxBytes: Int) -> any FileStoring {
    store.boundedCache(maxBytes: maxBytes)
}

extension BoundedFileStore<InMemoryFileStore> {
    /// The paths of the twin's files.
    fileprivate var paths: [String] { base.paths }
}
