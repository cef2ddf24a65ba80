import ForgeFileStore
import ForgeTestSupport
import Foundation
import Testing

/// `fileInfo(at:)` and `allFiles()`, written once on the backend contract: every file store reports its files with
/// their sizes and dates alike, the in-memory twin as the disk store does.
struct FileBackendInspectionTests {
    @Test(arguments: FileStoreKind.allCases)
    func allFilesListsEveryFileAtAnyDepthWithItsSize(kind: FileStoreKind) async throws {
        try await kind.withBackend { store in
            try await store.save(Data("abc".utf8), to: "docs/2025/report.txt")
            try await store.save(Data(), to: "empty.bin")
            try await store.save(Data("hello".utf8), to: "avatars/current.jpg")

            let files = try await store.allFiles()
            #expect(files.map(\.path) == ["avatars/current.jpg", "docs/2025/report.txt", "empty.bin"])
            #expect(files.map(\.size) == [5, 3, 0])
        }
    }

    @Test(arguments: FileStoreKind.allCases)
    func anEmptyStoreHasNoFilesAndADeletedFileIsGone(kind: FileStoreKind) async throws {
        try await kind.withBackend { store in
            #expect(try await store.allFiles().isEmpty)
            try await store.save(Data("x".utf8), to: "docs/a.txt")
            try await store.delete("docs/a.txt")
            #expect(try await store.allFiles().isEmpty)
            #expect(try store.fileInfo(at: "docs/a.txt") == nil)
        }
    }

    @Test(arguments: FileStoreKind.allCases)
    func fileInfoIsNilForMissingFilesAndFoldersAndRefusesInvalidPaths(kind: FileStoreKind) async throws {
        try await kind.withBackend { store in
            try await store.save(Data("x".utf8), to: "docs/a.txt")
            #expect(try store.fileInfo(at: "missing.txt") == nil)
            #expect(try store.fileInfo(at: "docs") == nil)
            #expect(try store.fileInfo(at: "docs/a.txt/b") == nil)
            #expect {
                try store.fileInfo(at: "../escape")
            } throws: { error in
                guard case FileStoreError.invalidPath(let path, _) = error else { return false }
                return path == "../escape"
            }
        }
    }

    @Test(arguments: FileStoreKind.allCases)
    func fileInfoNamesTheCanonicalPath(kind: FileStoreKind) async throws {
        try await kind.withBackend { store in
            try await store.save(Data("menu".utf8), to: "caf\u{65}\u{301}/menu.txt")
            let info = try #require(try store.fileInfo(at: "caf\u{E9}/menu.txt"))
            #expect(info.path.unicodeScalars.elementsEqual("caf\u{E9}/menu.txt".unicodeScalars))
            #expect(info.size == 4)
            #expect(try await store.allFiles() == [info])
        }
    }

    /// The date is the time of the save, by the system's clock, as a file system records it; a read or a save that
    /// fails leaves it.
    @Test(arguments: FileStoreKind.allCases)
    func aSaveDatesTheFileAndAReadOrAFailedSaveLeavesTheDate(kind: FileStoreKind) async throws {
        try await kind.withBackend { store in
            let before = Date()
            try await store.save(Data("first".utf8), to: "a.txt")
            let after = Date()
            let saved = try #require(try store.fileInfo(at: "a.txt"))
            // A file system's clock ticks coarsely (a few milliseconds on Linux): a second either way is ample.
            #expect(saved.modificationDate >= before.addingTimeInterval(-1))
            #expect(saved.modificationDate <= after.addingTimeInterval(1))

            _ = try await store.load("a.txt")
            await #expect(throws: FileStoreError.alreadyExists(path: "a.txt")) {
                try await store.save(Data("second".utf8), to: "a.txt", overwrite: false)
            }
            #expect(try store.fileInfo(at: "a.txt") == saved)
        }
    }

    @Test(arguments: FileStoreKind.allCases)
    func anOverwriteDatesTheFileAnew(kind: FileStoreKind) async throws {
        try await kind.withBackend { store in
            try await store.save(Data("first".utf8), to: "a.txt")
            let first = try #require(try store.fileInfo(at: "a.txt"))
            // Waits for the clock, not for the store: the file system's clock ticks every few milliseconds.
            while Date().timeIntervalSince(first.modificationDate) < 0.05 {
                try await Task.sleep(for: .milliseconds(10))
            }

            try await store.save(Data("second, longer".utf8), to: "a.txt")
            let second = try #require(try store.fileInfo(at: "a.txt"))
            #expect(second.size == 14)
            #expect(second.modificationDate > first.modificationDate)
        }
    }

    /// The same saves, overwrites and deletes give the same files on the twin, the disk store, a user's store and a
    /// user's asynchronous store: the walk is the library's, only the storage differs.
    @Test func everyStoreReportsTheSamePathsAndSizesForTheSameWrites() async throws {
        try await withTemporaryFolder { folder in
            let memory = InMemoryFileStore()
            let disk = DiskFileStore(directory: .custom(folder), namespace: "files")
            let table = TableFileStore(table: TableFileStore.Table(), namespace: "files")
            let asyncTable = AsyncTableFileStore(server: TableFileStore(table: TableFileStore.Table(), namespace: "a"))
            let start = Date()
            for store in [memory, disk, table, asyncTable] as [any AsyncFileStoring] { try await Self.write(to: store) }
            let end = Date()

            let expected = try await memory.allFiles()
            #expect(expected.map(\.path) == ["b/c/d.txt", "b/e.txt", "f g.bin", "z"])
            #expect(expected.map(\.size) == [6, 0, 1024, 2])
            for (name, files) in [
                ("memory", expected),
                ("disk", try await disk.allFiles()),
                ("table", try await table.allFiles()),
                ("async table", try await asyncTable.allFiles()),
            ] {
                #expect(files.map(\.path) == expected.map(\.path), "\(name)")
                #expect(files.map(\.size) == expected.map(\.size), "\(name)")
                for file in files {
                    #expect(file.modificationDate >= start.addingTimeInterval(-1), "\(name): \(file.path)")
                    #expect(file.modificationDate <= end.addingTimeInterval(1), "\(name): \(file.path)")
                }
            }
            for path in ["b/c/d.txt", "b", "a/gone.txt", "z"] {
                let info = try memory.fileInfo(at: path)
                #expect(try disk.fileInfo(at: path)?.size == info?.size)
                #expect(try table.fileInfo(at: path)?.size == info?.size)
                #expect(try await asyncTable.fileInfo(at: path)?.size == info?.size)
            }
        }
    }

    /// Saves, overwrites and deletes files in `store`; four files are left, two of them in folders.
    private static func write(to store: any AsyncFileStoring) async throws {
        try await store.save(Data("12345".utf8), to: "b/c/d.txt")
        try await store.save(Data("123456".utf8), to: "b/c/d.txt")
        try await store.save(Data(), to: "b/e.txt")
        try await store.save(Data(repeating: 7, count: 1024), to: "f g.bin")
        try await store.save(Data("gone".utf8), to: "a/gone.txt")
        try await store.delete("a/gone.txt")
        try await store.save(Data("zz".utf8), to: "z")
    }
}
