import ForgeFileStore
import ForgeTestSupport
import Foundation
import Testing

/// What a stream of `changes(in:)` tells: the same for the disk store and its in-memory twin.
///
/// The disk store learns of changes through the system's notifications, the twin as each call is made. Each change is awaited before the next is made, so the disk store's
/// streams see each one on its own.
@Suite("File change streams")
struct FileChangeStreamTests {
    /// Runs `body` with a fresh store of `backend` and a second handle on the same files (the store itself in
    /// memory), then removes what was stored.
    private func withStores(
        _ backend: FileStoreKind,
        _ body: (_ store: any FileChangeObserving, _ other: any FileStoring) async throws -> Void
    ) async throws {
        switch backend {
        case .memory, .memoryWithEvents, .memoryWithFaults:
            let store = backend.seenObserving(InMemoryFileStore())
            try await body(store, store)
        case .disk, .diskWithEvents, .diskWithFaults:
            try await withTemporaryFolder { folder in
                try await body(
                    backend.seenObserving(DiskFileStore(directory: .custom(folder), namespace: "files")),
                    DiskFileStore(directory: .custom(folder), namespace: "files")
                )
            }
        }
    }

    @Test(arguments: FileStoreKind.allCases)
    func savesAndDeletesAreToldAsCreatedModifiedAndDeleted(backend: FileStoreKind) async throws {
        try await withStores(backend) { store, other in
            let changes = StreamReader(try store.changes(in: ""))
            try await other.save(Data("1".utf8), to: "a.txt")
            #expect(await changes.next() == .created("a.txt"))
            try await other.save(Data("2".utf8), to: "a.txt")
            #expect(await changes.next() == .modified("a.txt"))
            try await other.save(Data("3".utf8), to: "docs/2025/b.txt")
            #expect(await changes.next() == .created("docs/2025/b.txt"), "a file in folders made by the save")
            try await other.save(Data("4".utf8), to: "docs/2025/b.txt")
            #expect(await changes.next() == .modified("docs/2025/b.txt"))
            try await other.delete("docs/2025/b.txt")
            #expect(await changes.next() == .deleted("docs/2025/b.txt"))
            try await other.save(Data("5".utf8), to: "docs/2025/c.txt")
            #expect(await changes.next() == .created("docs/2025/c.txt"), "the folder made again is seen")
            try await other.delete("a.txt")
            #expect(await changes.next() == .deleted("a.txt"))
        }
    }

    @Test(arguments: FileStoreKind.allCases)
    func aFolderStreamTellsOfItsFilesAtAnyDepthAndOfNothingElse(backend: FileStoreKind) async throws {
        try await withStores(backend) { store, other in
            let changes = StreamReader(try store.changes(in: "docs/"))
            try await other.save(Data("x".utf8), to: "docs-old/a.txt")
            try await other.save(Data("x".utf8), to: "top.txt")
            try await other.save(Data("x".utf8), to: "docs/a/b/c.txt")
            #expect(await changes.next() == .created("docs/a/b/c.txt"), "nothing outside docs comes before it")
            try await other.save(Data("x".utf8), to: "docs/d.txt")
            #expect(await changes.next() == .created("docs/d.txt"))
        }
    }

    @Test(arguments: FileStoreKind.allCases)
    func deleteAllTellsOfEveryFileInPathOrder(backend: FileStoreKind) async throws {
        try await withStores(backend) { store, other in
            for path in ["b.txt", "a/z.txt", "a/b/c.txt"] { try await other.save(Data("x".utf8), to: path) }
            let changes = StreamReader(try store.changes(in: ""))
            let inA = StreamReader(try store.changes(in: "a"))
            try await other.deleteAll()
            #expect(await changes.next(3) == [.deleted("a/b/c.txt"), .deleted("a/z.txt"), .deleted("b.txt")])
            #expect(await inA.next(2) == [.deleted("a/b/c.txt"), .deleted("a/z.txt")])
            try await other.save(Data("x".utf8), to: "a/new.txt")
            #expect(await changes.next() == .created("a/new.txt"), "the store's folder made again is seen")
            #expect(await inA.next() == .created("a/new.txt"))
        }
    }

    @Test(arguments: FileStoreKind.allCases)
    func aFolderThatDoesNotExistYetIsObserved(backend: FileStoreKind) async throws {
        try await withStores(backend) { store, other in
            let changes = StreamReader(try store.changes(in: "later/deeper"))
            try await other.save(Data("x".utf8), to: "later/deeper/file.txt")
            #expect(await changes.next() == .created("later/deeper/file.txt"))
        }
    }

    @Test(arguments: FileStoreKind.allCases)
    func failedCallsTellNothing(backend: FileStoreKind) async throws {
        try await withStores(backend) { store, other in
            try await other.save(Data("x".utf8), to: "a.txt")
            let changes = StreamReader(try store.changes(in: ""))
            await #expect(throws: FileStoreError.self) {
                try await other.save(Data("y".utf8), to: "a.txt", overwrite: false)
            }
            await #expect(throws: FileStoreError.self) { try await other.delete("missing.txt") }
            await #expect(throws: FileStoreError.self) { try await other.save(Data("y".utf8), to: "a.txt/b.txt") }
            try await other.save(Data("z".utf8), to: "z.txt")
            #expect(await changes.next() == .created("z.txt"), "the first change told is the one that happened")
        }
    }

    @Test(arguments: FileStoreKind.allCases)
    func anInvalidFolderIsRefusedWithTheStoresPathError(backend: FileStoreKind) async throws {
        try await withStores(backend) { store, _ in
            for folder in ["/abs", "a/../b", "a//b"] {
                let error = #expect(throws: FileStoreError.self) { _ = try store.changes(in: folder) }
                guard case .invalidPath(folder, _) = error else {
                    Issue.record("\(folder): \(String(describing: error))")
                    continue
                }
            }
        }
    }

    @Test(arguments: FileStoreKind.allCases)
    func everyStreamOfAFolderIsToldEvenWhenAnotherEnded(backend: FileStoreKind) async throws {
        try await withStores(backend) { store, other in
            let first = StreamReader(try store.changes(in: ""))
            _ = try store.changes(in: "")  // released at once, which ends it
            let second = StreamReader(try store.changes(in: ""))
            try await other.save(Data("x".utf8), to: "a.txt")
            #expect(await first.next() == .created("a.txt"))
            #expect(await second.next() == .created("a.txt"))
        }
    }
}

extension FileChangeStreamTests {
    @Test(arguments: FileStoreKind.allCases)
    func aStreamOnAPathThatIsAFileTellsOfNothing(backend: FileStoreKind) async throws {
        try await withStores(backend) { store, other in
            try await other.save(Data("x".utf8), to: "a.txt")
            let onFile = StreamReader(try store.changes(in: "a.txt"))
            let everything = StreamReader(try store.changes(in: ""))
            try await other.save(Data("y".utf8), to: "a.txt")
            #expect(await everything.next() == .modified("a.txt"))
            try await other.delete("a.txt")
            #expect(await everything.next() == .deleted("a.txt"))
            try await other.save(Data("z".utf8), to: "a.txt/inside.txt")
            #expect(await everything.next() == .created("a.txt/inside.txt"))
            #expect(await onFile.next() == .created("a.txt/inside.txt"), "the file itself was never told")
        }
    }
}

extension FileChangeStreamTests {
    /// A wait that found nothing leaves the stream running: the reader still gets what comes after.
    @Test(arguments: FileStoreKind.allCases)
    func aStreamThatToldNothingOfANeighbouringFolderStillTellsOfItsOwn(backend: FileStoreKind) async throws {
        try await withStores(backend) { store, other in
            let changes = StreamReader(try store.changes(in: "docs"))
            try await other.save(Data("x".utf8), to: "docs-old/a.txt")
            #expect(await changes.next(within: 0.3) == nil)
            try await other.save(Data("x".utf8), to: "docs/a.txt")
            #expect(await changes.next() == .created("docs/a.txt"))
        }
    }
}
