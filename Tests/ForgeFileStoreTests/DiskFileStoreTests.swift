import ForgeCore
import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeFileStore

/// What only the disk store has: files on disk, persistence, namespaces, links planted in its folder,
/// and leftovers of crashed processes.
@Suite("DiskFileStore")
struct DiskFileStoreTests {
    private let fileManager = FileManager.default

    @Test func filesLiveUnderTheNamespaceFolderWithTheirOwnNames() async throws {
        try await withTemporaryFolder { base in
            let store = DiskFileStore(directory: .custom(base), namespace: "taskflow")
            try await store.save(Data("x".utf8), to: "docs/a.txt")
            #expect(store.folderURL.standardizedFileURL == base.appendingPathComponent("taskflow").standardizedFileURL)
            let onDisk = base.appendingPathComponent("taskflow/docs/a.txt").path
            #expect(fileManager.contents(atPath: onDisk) == Data("x".utf8))
            #expect(
                try store.fileURL(for: "docs/a.txt").path == store.folderURL.appendingPathComponent("docs/a.txt").path
            )
            #expect(throws: FileStoreError.self) { try store.fileURL(for: "../a.txt") }
        }
    }

    @Test func filesPersistAcrossInstances() async throws {
        try await withTemporaryFolder { base in
            try await DiskFileStore(directory: .custom(base), namespace: "app").save(Data("kept".utf8), to: "a/b.txt")
            let reopened = DiskFileStore(directory: .custom(base), namespace: "app")
            #expect(try await reopened.load("a/b.txt") == Data("kept".utf8))
            #expect(try await reopened.list(in: "a") == ["a/b.txt"])
        }
    }

    @Test func namespacesAreIsolated() async throws {
        try await withTemporaryFolder { base in
            let first = DiskFileStore(directory: .custom(base), namespace: "first")
            let second = DiskFileStore(directory: .custom(base), namespace: "second")
            try await first.save(Data("1".utf8), to: "same.txt")
            try await second.save(Data("22".utf8), to: "same.txt")
            #expect(try await first.load("same.txt") == Data("1".utf8))
            #expect(try await second.totalSize() == 2)
            try await first.deleteAll()
            #expect(!first.exists("same.txt"))
            #expect(try await second.load("same.txt") == Data("22".utf8))
        }
    }

    @Test func aHostileNamespaceStaysInsideTheBaseFolder() async throws {
        try await withTemporaryFolder { base in
            let inner = base.appendingPathComponent("inner", isDirectory: true)
            try fileManager.createDirectory(at: inner, withIntermediateDirectories: true)
            let store = DiskFileStore(directory: .custom(inner), namespace: "../escaped")
            try await store.save(Data("x".utf8), to: "file.txt")
            #expect(try fileManager.contentsOfDirectory(atPath: base.path) == ["inner"])
            #expect(store.folderURL.deletingLastPathComponent().standardizedFileURL == inner.standardizedFileURL)
        }
    }

    // MARK: Symbolic links

    @Test(arguments: [true, false]) func aLinkedFolderInsideTheNamespaceLeadsNowhere(opensPathsInOneCall: Bool)
        async throws
    {
        try await withLinkedOutside(opensPathsInOneCall: opensPathsInOneCall) { store, outside in
            await #expect(throws: FileStoreError.readFailed(path: "evil/secret.txt", reason: .symbolicLink)) {
                try await store.load("evil/secret.txt")
            }
            await #expect(throws: FileStoreError.writeFailed(path: "evil/new.txt", reason: .symbolicLink)) {
                try await store.save(Data("pwned".utf8), to: "evil/new.txt")
            }
            await #expect(throws: FileStoreError.writeFailed(path: "evil/deeper/new.txt", reason: .symbolicLink)) {
                try await store.save(Data("pwned".utf8), to: "evil/deeper/new.txt")
            }
            await #expect(throws: FileStoreError.deleteFailed(path: "evil/secret.txt", reason: .symbolicLink)) {
                try await store.delete("evil/secret.txt")
            }
            await #expect(throws: FileStoreError.listFailed(path: "evil", reason: .symbolicLink)) {
                try await store.list(in: "evil")
            }
            #expect(!store.exists("evil/secret.txt"))
            let outsideContents = try self.fileManager.contentsOfDirectory(atPath: outside.path)
            #expect(outsideContents == ["secret.txt"])
        }
    }

    @Test(arguments: [true, false]) func aLinkedFolderDeeperInsideLeadsNowhere(opensPathsInOneCall: Bool) async throws {
        try await withLinkedOutside(opensPathsInOneCall: opensPathsInOneCall) { store, outside in
            try await store.save(Data("x".utf8), to: "a/real.txt")
            try self.fileManager.createSymbolicLink(
                at: store.folderURL.appendingPathComponent("a/b"),
                withDestinationURL: outside
            )
            await #expect(throws: FileStoreError.writeFailed(path: "a/b/c/new.txt", reason: .symbolicLink)) {
                try await store.save(Data("pwned".utf8), to: "a/b/c/new.txt")
            }
            await #expect(throws: FileStoreError.readFailed(path: "a/b/secret.txt", reason: .symbolicLink)) {
                try await store.load("a/b/secret.txt")
            }
            #expect(try self.fileManager.contentsOfDirectory(atPath: outside.path) == ["secret.txt"])
        }
    }

    @Test(arguments: [true, false]) func aLinkedFileIsNeitherReadNorWrittenThrough(opensPathsInOneCall: Bool)
        async throws
    {
        try await withLinkedOutside(opensPathsInOneCall: opensPathsInOneCall) { store, outside in
            let secret = outside.appendingPathComponent("secret.txt")
            await #expect(throws: FileStoreError.readFailed(path: "link.txt", reason: .symbolicLink)) {
                try await store.load("link.txt")
            }
            await #expect(throws: FileStoreError.deleteFailed(path: "link.txt", reason: .symbolicLink)) {
                try await store.delete("link.txt")
            }
            await #expect(throws: FileStoreError.writeFailed(path: "link.txt", reason: .symbolicLink)) {
                try await store.save(Data("pwned".utf8), to: "link.txt", overwrite: false)
            }
            #expect(!store.exists("link.txt"))
            // Replacing the link puts a file of the store in its place; the target is untouched.
            try await store.save(Data("mine".utf8), to: "link.txt")
            #expect(try await store.load("link.txt") == Data("mine".utf8))
            #expect(self.fileManager.contents(atPath: secret.path) == Data("secret".utf8))
        }
    }

    @Test func linksAreNotListedCountedOrFollowedByDeleteAll() async throws {
        try await withLinkedOutside { store, outside in
            try await store.save(Data("12345".utf8), to: "real.txt")
            #expect(try await store.list(in: "") == ["real.txt"])
            #expect(try await store.totalSize() == 5)
            try await store.deleteAll()
            #expect(!self.fileManager.fileExists(atPath: store.folderURL.path))
            let secret = outside.appendingPathComponent("secret.txt")
            #expect(self.fileManager.contents(atPath: secret.path) == Data("secret".utf8))
        }
    }

    /// A store whose folder holds `evil` (a link to a folder outside holding `secret.txt`) and `link.txt`
    /// (a link to that file); it opens paths in one call, or one name at a time.
    private func withLinkedOutside(
        opensPathsInOneCall: Bool = true,
        _ body: (DiskFileStore, URL) async throws -> Void
    ) async throws {
        try await withTemporaryFolder { base in
            let outside = base.appendingPathComponent("outside", isDirectory: true)
            try fileManager.createDirectory(at: outside, withIntermediateDirectories: true)
            let secret = outside.appendingPathComponent("secret.txt")
            try Data("secret".utf8).write(to: secret)
            let store = DiskFileStore(
                directory: .custom(base),
                namespace: "store",
                fileProtection: .none,
                durability: .atomic
            ) { $0.opensPathsInOneCall = opensPathsInOneCall }
            try fileManager.createDirectory(at: store.folderURL, withIntermediateDirectories: true)
            try fileManager.createSymbolicLink(
                at: store.folderURL.appendingPathComponent("evil"),
                withDestinationURL: outside
            )
            try fileManager.createSymbolicLink(
                at: store.folderURL.appendingPathComponent("link.txt"),
                withDestinationURL: secret
            )
            try await body(store, outside)
        }
    }

    // MARK: Temporary files

    @Test func orphansOfDeadProcessesAreRemovedWhenAStoreStarts() async throws {
        try await withTemporaryFolder { base in
            let folder = base.appendingPathComponent("app", isDirectory: true)
            let sub = folder.appendingPathComponent("docs/deep", isDirectory: true)
            let empty = folder.appendingPathComponent("empty/er", isDirectory: true)
            try fileManager.createDirectory(at: sub, withIntermediateDirectories: true)
            try fileManager.createDirectory(at: empty, withIntermediateDirectories: true)
            let dead = try deadProcessID()
            let live = ProcessInfo.processInfo.processIdentifier
            try Data("torn".utf8).write(to: folder.appendingPathComponent(".a.txt.forge-tmp-\(dead)-x1"))
            try Data("torn".utf8).write(to: sub.appendingPathComponent(".b.txt.forge-tmp-\(dead)-x2"))
            try Data("live".utf8).write(to: sub.appendingPathComponent(".c.txt.forge-tmp-\(live)-x3"))
            try Data("real".utf8).write(to: sub.appendingPathComponent("real.txt"))
            // The hidden folder of a deleteAll that crashed, beside the namespace folder.
            let trash = base.appendingPathComponent(".app.forge-tmp-\(dead)-x4/docs", isDirectory: true)
            try fileManager.createDirectory(at: trash, withIntermediateDirectories: true)
            try Data("old".utf8).write(to: trash.appendingPathComponent("old.txt"))

            let store = DiskFileStore(directory: .custom(base), namespace: "app")
            await StoreFolder.leftoverSweepsFinished()

            #expect(try fileManager.contentsOfDirectory(atPath: folder.path) == ["docs"])
            #expect(
                try fileManager.contentsOfDirectory(atPath: sub.path).sorted()
                    == [".c.txt.forge-tmp-\(live)-x3", "real.txt"]
            )
            #expect(try fileManager.contentsOfDirectory(atPath: base.path) == ["app"])
            #expect(try await store.load("docs/deep/real.txt") == Data("real".utf8))
        }
    }

    @Test func temporaryFilesAreNeverListedCountedOrReportedAsExisting() async throws {
        try await withTemporaryFolder { base in
            let store = DiskFileStore(directory: .custom(base), namespace: "app")
            try await store.save(Data("12".utf8), to: "docs/a.txt")
            let live = ProcessInfo.processInfo.processIdentifier
            let inFlight = ".b.txt.forge-tmp-\(live)-x"
            try Data("in flight".utf8).write(to: store.folderURL.appendingPathComponent("docs/\(inFlight)"))
            #expect(try await store.list(in: "docs") == ["docs/a.txt"])
            #expect(try await store.totalSize() == 2)
            #expect(!store.exists("docs/\(inFlight)"))
        }
    }

    @Test func aFailedSaveLeavesNoTemporaryFileAndNoFolder() async throws {
        try await withTemporaryFolder { base in
            let store = DiskFileStore(directory: .custom(base), namespace: "app")
            try await store.save(Data("x".utf8), to: "docs/a.txt")
            try await store.save(Data("y".utf8), to: "plain")
            await #expect(throws: FileStoreError.self) { try await store.save(Data("z".utf8), to: "docs") }
            await #expect(throws: FileStoreError.self) {
                try await store.save(Data("z".utf8), to: "docs/a.txt", overwrite: false)
            }
            await #expect(throws: FileStoreError.self) { try await store.save(Data("z".utf8), to: "plain/x/y") }
            #expect(try fileManager.contentsOfDirectory(atPath: store.folderURL.path).sorted() == ["docs", "plain"])
            let docs = store.folderURL.appendingPathComponent("docs").path
            #expect(try fileManager.contentsOfDirectory(atPath: docs) == ["a.txt"])
        }
    }

    @Test func aSaveNeverLeavesATornFileForReaders() async throws {
        try await withTemporaryFolder { base in
            let store = DiskFileStore(directory: .custom(base), namespace: "app")
            let versions = [Data(repeating: 1, count: 1 << 20), Data(repeating: 2, count: 2 << 20)]
            try await store.save(versions[0], to: "doc.bin")
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for round in 0..<20 { try await store.save(versions[round % 2], to: "doc.bin") }
                }
                group.addTask {
                    for _ in 0..<40 {
                        let read = try await store.load("doc.bin")
                        #expect(versions.contains(read))
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    /// The id of a process that has exited, so no process of this id runs.
    private func deadProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exit 0"]
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }
}
