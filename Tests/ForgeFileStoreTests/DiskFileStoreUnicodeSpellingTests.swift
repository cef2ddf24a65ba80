import ForgeCore
import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeFileStore

/// Files that another program named in decomposed Unicode (NFD), as an HFS+ volume or a macOS copy leaves
/// them: everything the store lists can be loaded, checked, sized and deleted through the path it was listed
/// as, in NFC, the spelling `InMemoryFileStore` keeps.
struct DiskFileStoreUnicodeSpellingTests {
    private let decomposedFolder = "cafe\u{301}"
    private let decomposedFile = "re\u{301}sume\u{301}.txt"

    /// A store whose folder holds `café/menu.txt` and `résumé.txt`, both written with NFD names by raw I/O.
    private func withDecomposedFiles(_ body: (DiskFileStore) async throws -> Void) async throws {
        try await withTemporaryFolder { base in
            let store = DiskFileStore(directory: .custom(base), namespace: "files")
            let root = store.folderURL.path
            try ForeignFiles.write(Data("menu".utf8), toPath: root + "/" + decomposedFolder + "/menu.txt")
            try ForeignFiles.write(Data("cv".utf8), toPath: root + "/" + decomposedFile)
            let onDisk = try FileManager.default.contentsOfDirectory(atPath: root)
            #expect(
                Set(onDisk.map { Array($0.utf8) }) == [Array(decomposedFolder.utf8), Array(decomposedFile.utf8)],
                "the names on disk are decomposed"
            )
            try await body(store)
        }
    }

    @Test func listedNamesAreNFCAndEachCanBeLoadedAndChecked() async throws {
        try await withDecomposedFiles { store in
            let listed = try await store.list(in: "")
            #expect(listed == ["caf\u{E9}/", "r\u{E9}sum\u{E9}.txt"])
            #expect(listed.allSatisfy { $0.utf8.elementsEqual(FileNameEncoding.canonicalForm(of: $0).utf8) })
            #expect(try await store.load("r\u{E9}sum\u{E9}.txt") == Data("cv".utf8))
            #expect(store.exists("r\u{E9}sum\u{E9}.txt"))
            #expect(try await store.list(in: "caf\u{E9}/") == ["caf\u{E9}/menu.txt"])
            #expect(try await store.load("caf\u{E9}/menu.txt") == Data("menu".utf8))
            #expect(store.exists("caf\u{E9}/menu.txt"))
            #expect(try store.fileInfo(at: "caf\u{E9}/menu.txt")?.size == 4)
        }
    }

    @Test func allFilesAndTotalSizeAgreeWithTheListing() async throws {
        try await withDecomposedFiles { store in
            let files = try await store.allFiles()
            #expect(files.map(\.path) == ["caf\u{E9}/menu.txt", "r\u{E9}sum\u{E9}.txt"])
            #expect(try await store.totalSize() == files.map(\.size).reduce(0, +))
        }
    }

    @Test func aDecomposedFileIsReplacedAndDeletedThroughItsListedPath() async throws {
        try await withDecomposedFiles { store in
            try await store.save(Data("new cv".utf8), to: "r\u{E9}sum\u{E9}.txt")
            #expect(try await store.list(in: "") == ["caf\u{E9}/", "r\u{E9}sum\u{E9}.txt"], "still one file")
            #expect(try await store.load("r\u{E9}sum\u{E9}.txt") == Data("new cv".utf8))

            try await store.save(Data("wine".utf8), to: "caf\u{E9}/wine.txt")
            #expect(try await store.list(in: "") == ["caf\u{E9}/", "r\u{E9}sum\u{E9}.txt"], "still one folder")

            try await store.delete("r\u{E9}sum\u{E9}.txt")
            try await store.delete("caf\u{E9}/menu.txt")
            try await store.delete("caf\u{E9}/wine.txt")
            #expect(try await store.list(in: "") == [])
            #expect(try FileManager.default.contentsOfDirectory(atPath: store.folderURL.path).isEmpty)
        }
    }

    @Test func aFolderOfManyNFCNamesListsAsTheMemoryTwinDoes() async throws {
        // Names in NFC, ASCII and not, which a listing takes as they are, and one in NFD that it respells.
        let stems = ["photo", "caf\u{E9}", "r\u{E9}sum\u{E9}", "\u{DC}berweisung", "αρχείο", "写真", "Zebra", "_x", "~y"]
        let nfcPaths = (0..<300).map { "\(stems[$0 % stems.count])-\($0).jpg" } + ["caf\u{E9}/menu.txt"]
        let memory = InMemoryFileStore()
        for path in nfcPaths { try await memory.save(Data(path.utf8), to: path) }
        try await memory.save(Data("nfd".utf8), to: "Ama\u{301}lia.txt")
        try await withTemporaryFolder { base in
            let disk = DiskFileStore(directory: .custom(base), namespace: "files")
            for path in nfcPaths { try await disk.save(Data(path.utf8), to: path) }
            try ForeignFiles.write(Data("nfd".utf8), toPath: disk.folderURL.path + "/Ama\u{301}lia.txt")

            let listed = try await disk.list(in: "")
            #expect(listed.count == nfcPaths.count + 1)
            #expect(listed == (try await memory.list(in: "")))
            #expect(listed.contains("Am\u{E1}lia.txt"))
            #expect(listed.allSatisfy { $0.utf8.elementsEqual(FileNameEncoding.canonicalForm(of: $0).utf8) })
        }
    }

    @Test func theMemoryTwinListsAndLoadsTheSamePaths() async throws {
        let memory = InMemoryFileStore()
        try await memory.save(Data("menu".utf8), to: decomposedFolder + "/menu.txt")
        try await memory.save(Data("cv".utf8), to: decomposedFile)
        try await withDecomposedFiles { disk in
            for folder in ["", "caf\u{E9}", decomposedFolder] {
                let expected = try await memory.list(in: folder)
                #expect(try await disk.list(in: folder) == expected)
            }
            let expectedSize = try await memory.totalSize()
            #expect(try await disk.totalSize() == expectedSize)
        }
    }
}

extension DiskFileStoreUnicodeSpellingTests {
    /// Creates an empty file at `folder` + `/` + `name`, where `name` is raw bytes that need not be UTF-8.
    private func createFile(in folder: String, rawName name: [UInt8]) throws {
        let path = (Array(folder.utf8) + [UInt8(ascii: "/")] + name + [0]).map { CChar(bitPattern: $0) }
        let fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
        try #require(fd >= 0)
        _ = write(fd, "bytes", 5)
        close(fd)
    }

    @Test func namesThatAreNotUTF8AreNotListedOrCountedAndDeleteAllStillEmptiesTheStore() async throws {
        try await withTemporaryFolder { base in
            let store = DiskFileStore(directory: .custom(base), namespace: "files")
            try await store.save(Data("kept".utf8), to: "docs/a.txt")
            let invalid: [UInt8] = [0x62, 0x61, 0x64, 0xFF, 0x2E, 0x74, 0x78, 0x74]  // "bad\xFF.txt"
            try createFile(in: store.folderURL.path, rawName: invalid)
            try createFile(in: store.folderURL.path + "/docs", rawName: invalid)

            #expect(try await store.list(in: "") == ["docs/"])
            #expect(try await store.list(in: "docs") == ["docs/a.txt"])
            #expect(try await store.totalSize() == 4)
            #expect(try await store.allFiles().map(\.path) == ["docs/a.txt"])

            try await store.deleteAll()
            #expect(!FileManager.default.fileExists(atPath: store.folderURL.path))
            try await store.save(Data("again".utf8), to: "a.txt")
            #expect(try await store.list(in: "") == ["a.txt"])
        }
    }
}

extension DiskFileStoreUnicodeSpellingTests {
    @Test func twoSpellingsOfOneNameShowTheNFCOneToEveryCall() async throws {
        try await withTemporaryFolder { base in
            let store = DiskFileStore(directory: .custom(base), namespace: "files")
            let root = store.folderURL.path
            try ForeignFiles.write(Data("NFC".utf8), toPath: root + "/caf\u{E9}.txt")
            try ForeignFiles.write(Data("NFD, longer".utf8), toPath: root + "/cafe\u{301}.txt")

            #expect(try await store.list(in: "") == ["caf\u{E9}.txt"])
            #expect(try await store.load("caf\u{E9}.txt") == Data("NFC".utf8))
            #expect(try await store.totalSize() == 3)
            #expect(try await store.allFiles().map(\.size) == [3])

            // With the NFC file gone, the NFD one is the name's file, for every call alike.
            try await store.delete("caf\u{E9}.txt")
            #expect(try await store.list(in: "") == ["caf\u{E9}.txt"])
            #expect(try await store.load("caf\u{E9}.txt") == Data("NFD, longer".utf8))
            #expect(try await store.totalSize() == 11)
        }
    }

    @Test func aFileInNFCHidesAFolderOfTheSameNameInNFD() async throws {
        try await withTemporaryFolder { base in
            let store = DiskFileStore(directory: .custom(base), namespace: "files")
            let root = store.folderURL.path
            try ForeignFiles.write(Data("file".utf8), toPath: root + "/caf\u{E9}")
            try ForeignFiles.write(Data("menu".utf8), toPath: root + "/cafe\u{301}/menu.txt")

            #expect(try await store.list(in: "") == ["caf\u{E9}"])
            #expect(try await store.load("caf\u{E9}") == Data("file".utf8))
            #expect(try await store.totalSize() == 4)
            #expect(try await store.allFiles().map(\.path) == ["caf\u{E9}"])
        }
    }

    @Test func aNameThatNFCMakesTooLongForAPathIsNotListedOrCounted() async throws {
        try await withTemporaryFolder { base in
            let store = DiskFileStore(directory: .custom(base), namespace: "files")
            // U+1D15E is excluded from composition: NFC spells it as two scalars, doubling the name to 504 bytes.
            let name = String(repeating: "\u{1D15E}", count: 63)
            #expect(name.utf8.count == 252)
            #expect(FileNameEncoding.canonicalForm(of: name).utf8.count == 504)
            try ForeignFiles.write(Data("x".utf8), toPath: store.folderURL.path + "/" + name)
            try await store.save(Data("kept".utf8), to: "kept.txt")

            #expect(try await store.list(in: "") == ["kept.txt"])
            #expect(try await store.totalSize() == 4)
            #expect(try await store.allFiles().map(\.path) == ["kept.txt"])
            try await store.deleteAll()
            #expect(!FileManager.default.fileExists(atPath: store.folderURL.path))
        }
    }
}
