import ForgeCore
import ForgeFileStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// Faults injected at the backend contract reach every file store the same way: the disk store, a store a user
/// wrote and the in-memory twin fail alike under the same fault, and log alike.
struct FaultInjectingFileStoreTests {
    /// Runs `body` with a store of each kind, all injecting faults from `faults` and logging to `log`.
    private func withStores(
        _ faults: StoreFaults,
        log: OperationLog? = nil,
        _ body: ([any FileStoring]) async throws -> Void
    ) async throws {
        try await withTemporaryFolder { folder in
            let disk = DiskFileStore(directory: .custom(folder), namespace: "docs")
            let table = TableFileStore(table: TableFileStore.Table(), namespace: "docs")
            try await body([
                disk.injectingFaults(faults, log: log, label: "disk"),
                table.injectingFaults(faults, log: log, label: "table"),
                InMemoryFileStore(label: "memory", faults: faults, log: log),
            ])
        }
    }

    @Test func aFailedSaveIsTheSameErrorOnEveryStoreAndKeepsThePreviousFile() async throws {
        let faults = StoreFaults()
        try await withStores(faults) { stores in
            var errors: [FileStoreError] = []
            for store in stores {
                try await store.save(Data("kept".utf8), to: "notes/a.txt")
                faults.failNext(.write, with: .outOfSpace)
                do {
                    try await store.save(Data("lost".utf8), to: "notes/a.txt")
                    Issue.record("\(type(of: store)) saved despite the fault")
                } catch let error as FileStoreError {
                    errors.append(error)
                }
                #expect(try await store.load("notes/a.txt") == Data("kept".utf8))
            }
            #expect(errors.count == 3)
            #expect(Set(errors.map { "\($0)" }).count == 1, "the stores failed differently: \(errors)")
        }
    }

    @Test func aWrappedStoreStillTellsOfItsChangesAndAFailedSaveTellsOfNone() async throws {
        let faults = StoreFaults()
        let files = InMemoryFileStore().injectingFaults(faults)
        let changes = try files.changes(in: "notes")
        faults.failNext(.write, with: .outOfSpace)
        await #expect(throws: FileStoreError.self) { try await files.save(Data("lost".utf8), to: "notes/a.txt") }
        try await files.save(Data("kept".utf8), to: "notes/b.txt")
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == .created("notes/b.txt"))
    }

    @Test func anAsyncWrappedStoreStillTellsOfItsChanges() async throws {
        let files = ObservedAsyncFileStore().injectingFaults(StoreFaults())
        let changes: AsyncStream<FileChange> = try files.changes(in: "")
        try await files.save(Data("kept".utf8), to: "a.txt")
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == .created("a.txt"))
    }

    @Test func damagedDataReadsAsATornFileAndAFailedListingIsTheSameOnEveryStore() async throws {
        let faults = StoreFaults()
        try await withStores(faults) { stores in
            for store in stores {
                try await store.save(Data("0123456789".utf8), to: "a.bin")
                faults.failNext(.read, with: .corruptData)
                #expect(try await store.load("a.bin") == Data("01234".utf8))
                faults.failNext(.exists, with: .permissionDenied)
                #expect(!store.exists("a.bin"))
                faults.failNext(.list, with: .permissionDenied)
                await #expect(throws: FileStoreError.self) { try await store.list(in: "") }
                #expect(try await store.list(in: "") == ["a.bin"])
            }
        }
    }

    /// `fileInfo(at:)` asks the store as `exists` does, and `allFiles()` lists each folder as `list(in:)` does, so a
    /// fault reaches the inspection of every store alike.
    @Test func aFaultHidesAFilesInfoOrFailsTheWalkAlikeOnEveryStore() async throws {
        let faults = StoreFaults()
        let log = OperationLog()
        try await withStores(faults, log: log) { stores in
            var errors: [String] = []
            for case let store as any FileStoring & FileBackend in stores {
                try await store.save(Data("abc".utf8), to: "docs/a.txt")
                faults.failNext(.exists, with: .permissionDenied)
                #expect(try store.fileInfo(at: "docs/a.txt") == nil)
                #expect(try store.fileInfo(at: "docs/a.txt")?.size == 3)

                faults.failNext(.list, at: "docs", with: .permissionDenied)
                do {
                    _ = try await store.allFiles()
                    Issue.record("\(type(of: store)) walked its folders despite the fault")
                } catch {
                    errors.append("\(error)")
                }
                #expect(try await store.allFiles().map(\.path) == ["docs/a.txt"])
            }
            #expect(errors.count == 3)
            #expect(Set(errors).count == 1, "the stores failed differently: \(errors)")
        }
        let calls = Dictionary(grouping: log.entries, by: \.store).mapValues { $0.map(\.operation) }
        #expect(calls["disk"] == calls["table"])
        #expect(calls["disk"] == calls["memory"])
    }

    @Test func everyStoreLogsTheSameCallsUnderItsLabel() async throws {
        let log = OperationLog()
        try await withStores(StoreFaults(), log: log) { stores in
            for store in stores {
                try await store.save(Data(), to: "a.txt")
                _ = try await store.load("a.txt")
            }
        }
        let calls = Dictionary(grouping: log.entries, by: \.store).mapValues { $0.map(\.operation) }
        #expect(calls["disk"] == [.write, .read])
        #expect(calls["disk"] == calls["table"])
        #expect(calls["disk"] == calls["memory"])
    }
}

/// An asynchronous file store that tells of its changes, as a user's store behind a network might: it keeps its files
/// in an `InMemoryFileStore`, whose changes it passes on.
private struct ObservedAsyncFileStore: AsyncFileBackend, AsyncFileChangeObserving {
    let files = InMemoryFileStore()

    func contents(at path: StoredFilePath) async throws -> Data? { try files.contents(at: path) }

    func write(_ data: Data, at path: StoredFilePath, replacing: Bool) async throws {
        try files.write(data, at: path, replacing: replacing)
    }

    func removeFile(at path: StoredFilePath) async throws -> Bool { try files.removeFile(at: path) }

    func hasFile(at path: StoredFilePath) async throws -> Bool { files.hasFile(at: path) }

    func storedFileInfo(at path: StoredFilePath) async throws -> StoredFileInfo? { files.storedFileInfo(at: path) }

    func entryNames(in folder: StoredFilePath) async throws -> [String] { try files.entryNames(in: folder) }

    func removeAll() async throws { try files.removeAll() }

    func storedSize() async throws -> Int { try files.storedSize() }

    func changes(in folder: String) throws -> AsyncStream<FileChange> { try files.changes(in: folder) }
}
