import ForgeFileStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// Where the file stores' async operations run, called through `FileStoring`.
///
/// A small read or write runs on the caller's executor (no switch of threads, so from the main actor it costs its
/// system calls); a large one and the whole-store operations run on the concurrent pool, so that they never hold the
/// caller's actor. Counted on an actor whose executor counts its jobs, not timed.
struct FileStoreCallerExecutorTests {
    /// A small file: 1 KiB.
    static let small = Data(repeating: 7, count: 1024)
    /// A file larger than ``DiskFileStore/largeFileSize``.
    static let large = Data(repeating: 9, count: DiskFileStore.largeFileSize + 1)

    @Test(arguments: FileStoreKind.allCases)
    func smallReadsAndWritesRunOnTheCaller(backend: FileStoreKind) async throws {
        try await backend.withSubject { subject in
            let store = subject.store
            let caller = CallerActor()
            var jobs: [String: Int] = [:]
            jobs["save"] = try await caller.jobsEnqueued { try await store.save(Self.small, to: "a/b/c/f.bin") }
            jobs["load"] = try await caller.jobsEnqueued { _ = try await store.load("a/b/c/f.bin") }
            jobs["list"] = try await caller.jobsEnqueued { _ = try await store.list(in: "a/b/c") }
            jobs["delete"] = try await caller.jobsEnqueued { try await store.delete("a/b/c/f.bin") }
            jobs["saveJSON"] = try await caller.jobsEnqueued { try await store.saveJSON([1, 2], to: "n.json") }
            jobs["loadJSON"] = try await caller.jobsEnqueued { _ = try await store.loadJSON("n.json", as: [Int].self) }
            #expect(jobs.values.allSatisfy { $0 == 0 }, "jobs given to the caller's executor: \(jobs)")
        }
    }

    @Test func aLargeLoadOrSaveOnDiskLeavesTheCaller() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskFileStore(directory: .custom(folder), namespace: "files")
            let caller = CallerActor()
            let saveJobs = try await caller.jobsEnqueued { try await store.save(Self.large, to: "big.bin") }
            var loaded = Data()
            let loadJobs = try await caller.jobsEnqueued { loaded = try await store.load("big.bin") }
            #expect(saveJobs >= 1)
            #expect(loadJobs >= 1)
            #expect(loaded == Self.large)
            // A failure off the caller names the path as it was given.
            try await store.save(Self.small, to: "f.bin")
            await #expect {
                try await store.save(Self.large, to: "f.bin/x")
            } throws: { error in
                guard case .writeFailed(let path, _) = error as? FileStoreError else { return false }
                return path == "f.bin/x"
            }
            #expect(try await store.load("f.bin") == Self.small)
            await #expect(throws: FileStoreError.notFound(path: "missing.bin")) {
                try await caller.jobsEnqueued { _ = try await store.load("missing.bin") }
            }
        }
    }

    @Test func wholeStoreOperationsOnDiskLeaveTheCaller() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskFileStore(directory: .custom(folder), namespace: "files")
            try await store.save(Self.small, to: "f.bin")
            let caller = CallerActor()
            let totalSizeJobs = try await caller.jobsEnqueued { _ = try await store.totalSize() }
            let deleteAllJobs = try await caller.jobsEnqueued { try await store.deleteAll() }
            #expect(totalSizeJobs >= 1)
            #expect(deleteAllJobs >= 1)
        }
    }
}
