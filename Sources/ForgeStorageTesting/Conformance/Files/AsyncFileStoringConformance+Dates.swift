internal import ForgeFileStore
internal import Foundation
internal import Testing

extension AsyncFileStoringConformance {
    /// The check of the dates a store that can be inspected reports: part of ``coreChecks``, skipped for a store that
    /// is not built on `FileBackend` or `AsyncFileBackend` (which has no `fileInfo(at:)`).
    static var dateChecks: [Check] {
        [
            Check(
                "an overwrite dates the file anew, in fileInfo and allFiles",
                unmetNeed: { FileInspection($0.store) == nil ? "the store has no fileInfo(at:) and allFiles()" : nil },
                anOverwriteDatesTheFileAnew
            )
        ]
    }

    /// A file saved again reports the date of that save: not earlier than a file saved between the two saves.
    ///
    /// A file system dates files by a clock that ticks coarsely (a few milliseconds, up to seconds on some volumes), so
    /// the check saves a second file until the store dates it later than the first save: then an overwrite that kept
    /// the first save's date shows, however fast the store is.
    private static func anOverwriteDatesTheFileAnew(_ subject: Subject) async throws {
        let store = subject.store
        let inspection = try #require(FileInspection(store))
        let path = "dated/file.txt"
        try await store.save(Data("first".utf8), to: path)
        let first = try #require(try await inspection.info(path)).modificationDate
        var between = first
        let giveUp = ContinuousClock.now.advanced(by: .seconds(30))
        while between <= first {
            guard ContinuousClock.now < giveUp else {
                Issue.record("the store dated every save \(first) for 30 seconds")
                return
            }
            // Waits for the store's clock to tick: how long it takes decides nothing but how many saves this makes.
            try await Task.sleep(for: .milliseconds(1))
            try await store.save(Data("between".utf8), to: "dated/between.txt")
            between = try #require(try await inspection.info("dated/between.txt")).modificationDate
        }
        try await store.save(Data("second save".utf8), to: path)
        let info = try #require(try await inspection.info(path))
        #expect(info.modificationDate >= between, "fileInfo dates the file when it was saved again, not first saved")
        #expect(info.size == 11)
        let listed = try await inspection.all().first { $0.path == path }
        #expect(listed?.modificationDate == info.modificationDate, "allFiles reports the date fileInfo reports")
        #expect(listed?.size == 11)
    }
}

/// What a store that can be inspected tells of its files (`fileInfo(at:)` and `allFiles()` of `FileBackend` and
/// `AsyncFileBackend`), for the checks of the dates.
struct FileInspection: Sendable {
    /// The file at a path, with its size and date, or nil.
    let info: @Sendable (String) async throws -> StoredFileInfo?
    /// Every file, with its size and date.
    let all: @Sendable () async throws -> [StoredFileInfo]

    /// The inspection of `store`, seen through the suite's synchronous adapter too; nil when it has none.
    init?(_ store: any AsyncFileStoring) {
        let store: Any = (store as? SynchronousFileStore)?.base ?? store
        if let backend = store as? any FileBackend {
            info = { try backend.fileInfo(at: $0) }
            all = { try await backend.allFiles() }
        } else if let backend = store as? any AsyncFileBackend {
            info = { try await backend.fileInfo(at: $0) }
            all = { try await backend.allFiles() }
        } else {
            return nil
        }
    }
}
