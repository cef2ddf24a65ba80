import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeFileStore

/// What `fileInfo(at:)` and `allFiles()` read on disk: the file system's own size and date, whoever wrote the file.
/// (What every store reports alike is in `FileBackendInspectionTests`.)
struct DiskFileStoreInspectionTests {
    @Test func fileInfoGivesTheModificationDateTheFileSystemHolds() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskFileStore(directory: .custom(folder), namespace: "files")
            try await store.save(Data("x".utf8), to: "a.txt")
            let url = try store.fileURL(for: "a.txt")
            let date = Date(timeIntervalSince1970: 1_700_000_000)
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url.path)

            let info = try #require(try store.fileInfo(at: "a.txt"))
            #expect(info == StoredFileInfo(path: "a.txt", size: 1, modificationDate: date))
            #expect(try await store.allFiles() == [info])
        }
    }

    @Test func aFileAnotherProgramWroteIsListedWithItsSizeAndASymbolicLinkIsNot() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskFileStore(directory: .custom(folder), namespace: "files")
            try await store.save(Data("x".utf8), to: "docs/a.txt")
            let docs = store.folderURL.appendingPathComponent("docs", isDirectory: true)
            try ForeignFiles.write(
                Data("written outside".utf8),
                toPath: docs.appendingPathComponent("outside.txt").path
            )
            try FileManager.default.createSymbolicLink(
                at: docs.appendingPathComponent("link.txt"),
                withDestinationURL: docs.appendingPathComponent("a.txt")
            )

            let files = try await store.allFiles()
            #expect(files.map(\.path) == ["docs/a.txt", "docs/outside.txt"])
            #expect(files.map(\.size) == [1, 15])
            #expect(try store.fileInfo(at: "docs/link.txt") == nil)
        }
    }
}
