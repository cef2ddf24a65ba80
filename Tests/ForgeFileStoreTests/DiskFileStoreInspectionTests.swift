import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeFileStore

/// `fileInfo(at:)` and `allFiles()`: a store's files with their sizes and dates.
struct DiskFileStoreInspectionTests {
    @Test func allFilesListsEveryFileAtAnyDepthWithItsSize() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskFileStore(directory: .custom(folder), namespace: "files")
            try await store.save(Data("abc".utf8), to: "docs/2025/report.txt")
            try await store.save(Data(), to: "empty.bin")
            try await store.save(Data("hello".utf8), to: "avatars/current.jpg")

            let files = try await store.allFiles()
            #expect(files.map(\.path) == ["avatars/current.jpg", "docs/2025/report.txt", "empty.bin"])
            #expect(files.map(\.size) == [5, 3, 0])
        }
    }

    @Test func fileInfoGivesTheModificationDate() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskFileStore(directory: .custom(folder), namespace: "files")
            try await store.save(Data("x".utf8), to: "a.txt")
            let url = try store.fileURL(for: "a.txt")
            let date = Date(timeIntervalSince1970: 1_700_000_000)
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url.path)

            let info = try #require(try store.fileInfo(at: "a.txt"))
            #expect(info == StoredFileInfo(path: "a.txt", size: 1, modificationDate: date))
        }
    }

    @Test func fileInfoIsNilForMissingFilesAndFolders() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskFileStore(directory: .custom(folder), namespace: "files")
            try await store.save(Data("x".utf8), to: "docs/a.txt")
            #expect(try store.fileInfo(at: "missing.txt") == nil)
            #expect(try store.fileInfo(at: "docs") == nil)
            #expect(throws: FileStoreError.self) { try store.fileInfo(at: "../escape") }
        }
    }

    @Test func anEmptyStoreHasNoFiles() async throws {
        try await withTemporaryFolder { folder in
            let store = DiskFileStore(directory: .custom(folder), namespace: "never-written")
            let files = try await store.allFiles()
            #expect(files.isEmpty)
        }
    }
}
