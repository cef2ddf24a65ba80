import ForgeCore
import ForgeFileStore
import ForgeTestSupport
import Foundation
import Testing

/// What a `DiskFileStore`'s change stream sees of the files another process saves and deletes in the same folder.
@Suite(.enabled(if: FolderWatch.isSupported, "no folder notifications on this platform"))
struct DiskFileStoreCrossProcessChangesTests {
    @Test func aChildProcessSavesAndDeletesAndTheStreamTellsOfEachFileOnce() async throws {
        let writer = try #require(CrashHarness.writerURL(), "the ForgeCrashWriter executable is missing")
        try await withTemporaryFolder { folder in
            let store = DiskFileStore(directory: .custom(folder), namespace: "shared")
            let changes = StreamReader(try store.changes(in: ""))

            let save = try await onOwnThread {
                try Process.runToEnd(writer, arguments: ["files", folder.path, "shared", "save", "30"])
            }
            #expect(save.status == 0)
            let saved = try await allFiles(of: store)
            #expect(saved.count == 30)
            let created = await changes.next(30)
            #expect(created.allSatisfy { if case .created = $0 { true } else { false } })
            #expect(Set(created.map(\.path)) == saved, "each file told once, as created")

            let deleteAll = try await onOwnThread {
                try Process.runToEnd(writer, arguments: ["files", folder.path, "shared", "delete-all"])
            }
            #expect(deleteAll.status == 0)
            #expect(await changes.next(30) == saved.sorted().map { .deleted($0) })
        }
    }

    /// Every file in `store`, through its listings.
    private func allFiles(of store: DiskFileStore, in folder: String = "") async throws -> Set<String> {
        var files: Set<String> = []
        for entry in try await store.list(in: folder) {
            if entry.hasSuffix("/") {
                files.formUnion(try await allFiles(of: store, in: entry))
            } else {
                files.insert(entry)
            }
        }
        return files
    }
}
