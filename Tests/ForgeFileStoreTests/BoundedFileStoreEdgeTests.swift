import ForgeFileStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Synchronization
import Testing

/// Opens once; waiters resume when it opens.
final class OpeningLatch: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// The twin, whose next removal (once armed) pauses after removing its file until `proceed` opens.
final class GatedFileStore: FileStoring, AsyncFileStoring, FileBackend {
    let base = InMemoryFileStore()
    let armed = Mutex(false)
    let removed = OpeningLatch()
    let proceed = OpeningLatch()

    nonisolated(nonsending) func contents(at path: StoredFilePath) async throws -> Data? {
        try base.contents(at: path)
    }
    nonisolated(nonsending) func write(_ data: Data, at path: StoredFilePath, replacing: Bool) async throws {
        try base.write(data, at: path, replacing: replacing)
    }
    nonisolated(nonsending) func removeFile(at path: StoredFilePath) async throws -> Bool {
        let result = try base.removeFile(at: path)
        if armed.withLock({ armed in
            defer { armed = false }
            return armed
        }) {
            removed.open()
            await proceed.wait()
        }
        return result
    }
    func hasFile(at path: StoredFilePath) -> Bool { base.hasFile(at: path) }
    func storedFileInfo(at path: StoredFilePath) throws -> StoredFileInfo? { base.storedFileInfo(at: path) }
    nonisolated(nonsending) func entryNames(in folder: StoredFilePath) async throws -> [String] {
        try base.entryNames(in: folder)
    }
    nonisolated(nonsending) func removeAll() async throws { try base.removeAll() }
    nonisolated(nonsending) func storedSize() async throws -> Int { try base.storedSize() }
}

struct BoundedFileStoreEdgeTests {
    static let ten = Data(repeating: 1, count: 10)

    /// Two saves that overlap, one evicting `q` while the other saves `q` again, leave the store within its budget,
    /// and so do the saves after them.
    @Test func overlappingSavesOfAFileBeingEvictedKeepTheBudget() async throws {
        let store = GatedFileStore()
        let cache = store.boundedCache(maxBytes: 20)
        try await cache.save(Self.ten, to: "q")
        try await cache.save(Self.ten, to: "r")
        _ = try await cache.load("r")  // q is the least recently used
        store.armed.withLock { $0 = true }
        let saveP = Task { try await cache.save(Self.ten, to: "p") }  // evicts q, pauses after removing it
        await store.removed.wait()
        try await cache.save(Self.ten, to: "q")  // q saved again, while p's save runs
        store.proceed.open()
        try await saveP.value
        #expect(try await cache.totalSize() <= 20, "after every save returned")
        try await cache.save(Self.ten, to: "s")
        try await cache.save(Self.ten, to: "t")
        #expect(try await cache.totalSize() <= 20, "after two more saves alone")
    }

    /// A save that the store would refuse (the path is a folder, or a folder on its way is a file) fails before it
    /// removes anything, whatever the budget.
    @Test(arguments: FileStoreKind.allCases)
    func aSaveToAFolderFailsAndRemovesNothing(kind: FileStoreKind) async throws {
        try await kind.withBackend { store in
            let cache = boundedForTest(store, maxBytes: 20)
            try await cache.save(Self.ten, to: "kept")
            try await cache.save(Self.ten, to: "dir/x")
            await #expect(throws: FileStoreError.writeFailed(path: "dir", reason: .isFolder)) {
                try await cache.save(Self.ten, to: "dir")
            }
            #expect(cache.exists("kept"), "a save that fails for its path lost 'kept'")
        }
    }

    @Test(arguments: FileStoreKind.allCases)
    func aSaveUnderAFileFailsAndRemovesNothing(kind: FileStoreKind) async throws {
        try await kind.withBackend { store in
            let cache = boundedForTest(store, maxBytes: 20)
            try await cache.save(Self.ten, to: "kept")
            try await cache.save(Self.ten, to: "f")
            await #expect(throws: FileStoreError.writeFailed(path: "f/g", reason: .parentIsFile)) {
                try await cache.save(Self.ten, to: "f/g")
            }
            #expect(cache.exists("kept"), "a save that fails for its path lost 'kept'")
        }
    }

    /// A file on the way is refused even when it is the least recently used, which a save could otherwise remove.
    @Test(arguments: FileStoreKind.allCases)
    func aSaveUnderTheLeastRecentlyUsedFileFailsToo(kind: FileStoreKind) async throws {
        try await kind.withBackend { store in
            let cache = boundedForTest(store, maxBytes: 20)
            try await cache.save(Self.ten, to: "f")
            try await cache.save(Self.ten, to: "kept")
            await #expect(throws: FileStoreError.writeFailed(path: "f/g", reason: .parentIsFile)) {
                try await cache.save(Self.ten, to: "f/g")
            }
        }
    }

    /// A load needs no listing; a save whose listing or room-making fails throws writeFailed naming the file saved,
    /// and keeps the files it could not remove.
    @Test func failuresOfTheBookkeepingAreThrownAsTheCallersPath() async throws {
        let faults = StoreFaults()
        let base = InMemoryFileStore(faults: faults)
        try await base.save(Self.ten, to: "a")
        let cache = base.boundedCache(maxBytes: 20)
        faults.failNext(.list, with: .corruptData)
        #expect(try await cache.load("a") == Self.ten, "a load of a file that is there lists nothing")
        await #expect(throws: FileStoreError.writeFailed(path: "b", reason: .ioError)) {
            try await cache.save(Self.ten, to: "b")
        }
        try await cache.save(Self.ten, to: "b")
        faults.failNext(.delete, with: .permissionDenied)
        await #expect(throws: FileStoreError.writeFailed(path: "new", reason: .permissionDenied)) {
            try await cache.save(Self.ten, to: "new")
        }
        #expect(try await cache.list(in: "") == ["a", "b"])
        try await cache.save(Self.ten, to: "new")
        #expect(try await cache.totalSize() == 20, "the file kept was counted again")
    }

    /// Two spellings of one path are one file to the cache.
    @Test(arguments: FileStoreKind.allCases)
    func spellingsAreOneFile(kind: FileStoreKind) async throws {
        try await kind.withBackend { store in
            let cache = boundedForTest(store, maxBytes: 20)
            try await cache.save(Self.ten, to: "cafe\u{301}")
            try await cache.save(Self.ten, to: "caf\u{e9}")
            try await cache.save(Self.ten, to: "x")
            #expect(cache.exists("caf\u{e9}") && cache.exists("x"))
        }
    }

    /// Saves running at once leave the store within its budget once all returned.
    @Test func concurrentSavesStayWithinTheBudget() async throws {
        var worst = 0
        for _ in 0..<50 {
            let cache = InMemoryFileStore().boundedCache(maxBytes: 50)
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<16 {
                    group.addTask { try? await cache.save(Self.ten, to: "f\(index)") }
                }
            }
            worst = max(worst, try await cache.totalSize())
        }
        #expect(worst <= 50)
    }
}

private func boundedForTest(_ store: some FileBackend, maxBytes: Int) -> any FileStoring {
    store.boundedCache(maxBytes: maxBytes)
}
