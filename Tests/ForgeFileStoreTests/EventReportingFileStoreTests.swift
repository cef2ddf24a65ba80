import ForgeCore
import ForgeFileStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// `reportingEvents(label:to:)` on file stores: the wrapped stores pass both suites as the stores do, each call is
/// reported with its canonical path and bytes, and a call still runs where the wrapped store runs it.
struct EventReportingFileStoreTests {
    // MARK: - The suites

    @Test func aReportingMemoryStorePassesBothSuites() async {
        await FileStoringConformance.run {
            FileStoringConformance.Subject(InMemoryFileStore().reportingEvents { _ in })
        }
        await AsyncFileStoringConformance.run {
            AsyncFileStoringConformance.Subject(InMemoryFileStore().reportingEvents { _ in })
        }
    }

    @Test func aReportingDiskStorePassesBothSuites() async throws {
        try await withTemporaryFolder { folder in
            @Sendable func open(_ namespace: String) -> InterceptedFileStore<DiskFileStore> {
                DiskFileStore(directory: .custom(folder), namespace: namespace).reportingEvents { _ in }
            }
            await FileStoringConformance.run {
                let namespace = UUID().uuidString
                return FileStoringConformance.Subject(
                    open(namespace),
                    reopen: { open(namespace) },
                    neighbour: open(namespace + ".neighbour")
                )
            }
            await AsyncFileStoringConformance.run {
                let namespace = UUID().uuidString
                return AsyncFileStoringConformance.Subject(
                    open(namespace),
                    reopen: { open(namespace) },
                    neighbour: open(namespace + ".neighbour")
                )
            }
        }
    }

    @Test func aReportingAsyncStorePassesTheAsyncSuite() async {
        await AsyncFileStoringConformance.run {
            let table = TableFileStore.Table()
            @Sendable func open(_ namespace: String) -> some AsyncFileStoring {
                AsyncTableFileStore(server: TableFileStore(table: table, namespace: namespace))
                    .reportingEvents { _ in }
            }
            return AsyncFileStoringConformance.Subject(
                open("store"),
                reopen: { open("store") },
                neighbour: open("other")
            )
        }
    }

    // MARK: - Calls

    @Test func eachCallIsReportedWithItsCanonicalPathAndItsBytes() async throws {
        let events = RecordedEvents()
        let store = InMemoryFileStore().reportingEvents(label: "documents", to: events.handler)
        let decomposed = "notes/cafe\u{301}.txt"

        try await store.save(Data("hello".utf8), to: decomposed)
        #expect(try await store.load(decomposed) == Data("hello".utf8))
        #expect(store.exists(decomposed))
        #expect(try await store.list(in: "notes") == ["notes/caf\u{E9}.txt"])
        #expect(try await store.totalSize() == 5)
        try await store.delete(decomposed)
        try await store.deleteAll()

        let calls = events.calls
        #expect(calls.map(\.event.operation) == [.write, .read, .exists, .list, .list, .delete, .deleteAll])
        let path = "notes/caf\u{E9}.txt"
        #expect(calls.map(\.event.target) == [path, path, path, "notes", nil, path, nil])
        #expect(calls.allSatisfy { $0.event.store == .files && $0.event.label == "documents" })
        #expect(calls.allSatisfy { $0.call.failure == nil })
        #expect(calls.map(\.call.bytesWritten) == [5, nil, nil, nil, nil, nil, nil])
        #expect(calls.map(\.call.bytesRead) == [nil, 5, nil, nil, nil, nil, nil])
    }

    @Test func aSaveThatMustNotReplaceReportsAlreadyExists() async throws {
        let events = RecordedEvents()
        let store = InMemoryFileStore().reportingEvents(to: events.handler)
        try await store.save(Data("a".utf8), to: "a.txt")

        await #expect(throws: FileStoreError.alreadyExists(path: "a.txt")) {
            try await store.save(Data("b".utf8), to: "a.txt", overwrite: false)
        }

        let failure = events.calls.last?.call.failure
        #expect(failure?.code == "alreadyExists")
        #expect(failure?.reason == nil)
        #expect(failure?.error as? FileStoreError == .alreadyExists(path: "a.txt"))
    }

    @Test func aFullDiskIsReportedWithItsReason() async throws {
        let faults = StoreFaults()
        let events = RecordedEvents()
        let store = InMemoryFileStore(faults: faults).reportingEvents(to: events.handler)
        faults.failNext(.write, with: .outOfSpace)

        await #expect(throws: FileStoreError.self) { try await store.save(Data(), to: "a.txt") }

        let failure = events.calls.first?.call.failure
        #expect(failure?.code == "writeFailed")
        #expect(failure?.reason == .outOfSpace)
        #expect(failure?.description.contains("a.txt") == true)
    }

    @Test func aFileThatIsNotThereIsAReadOfNoBytesThatSucceeded() async throws {
        let events = RecordedEvents()
        let store = InMemoryFileStore().reportingEvents(to: events.handler)

        await #expect(throws: FileStoreError.notFound(path: "missing.txt")) { try await store.load("missing.txt") }

        #expect(events.calls.map(\.call.bytesRead) == [nil])
        #expect(events.calls.first?.call.failure == nil)
    }

    @Test func anAsyncStoreReportsItsListingOfEveryFileAsOneCall() async throws {
        let events = RecordedEvents()
        let store = AsyncTableFileStore(server: TableFileStore(table: TableFileStore.Table(), namespace: "a"))
            .reportingEvents(label: "remote", to: events.handler)
        try await store.save(Data("12".utf8), to: "x/y.txt")
        events.removeAll()

        #expect(try await store.allFiles().map(\.path) == ["x/y.txt"])
        #expect(try await store.exists("x/y.txt"))

        #expect(events.calls.map(\.event.operation) == [.list, .exists])
        #expect(events.calls.map(\.event.label) == ["remote", "remote"])
    }

    // MARK: - Where a call runs

    @Test func aSmallFilesLoadStillRunsOnTheCallersExecutor() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskFileStore(directory: .custom(folder), namespace: "files").reportingEvents { _ in }
            try await store.save(Data("small".utf8), to: "small.bin")
            let caller = CallerActor()

            let hops = try await caller.jobsEnqueued { _ = try await store.load("small.bin") }

            #expect(hops == 0)
        }
    }

    @Test func theWrappedStoresChangesPassThrough() async throws {
        let memory = InMemoryFileStore()
        let store = memory.reportingEvents { _ in }
        var changes = try store.changes(in: "").makeAsyncIterator()

        try await memory.save(Data(), to: "a.txt")

        #expect(await changes.next() != nil)
    }
}
