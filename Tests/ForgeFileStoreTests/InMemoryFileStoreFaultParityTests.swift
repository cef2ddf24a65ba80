import ForgeCore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeFileStore

/// An injected fault on ``InMemoryFileStore`` throws what ``DiskFileStore`` throws for the same failure.
struct InMemoryFileStoreFaultParityTests {
    @Test(arguments: [StoreFailure.outOfSpace, .permissionDenied, .deviceLocked])
    func everyFailureMapsThroughTheDiskStoresOwnTranslation(failure: StoreFailure) async throws {
        let code: Int32 =
            switch failure {
            case .outOfSpace: 28  // ENOSPC
            case .permissionDenied: 13  // EACCES
            default: 1  // EPERM: data protection refuses to open a file while the device is locked
            }
        let path = "avatars/current.jpg"
        let memory = InMemoryFileStore(faults: StoreFaults([.always(.all, with: failure)]))
        let opened = FileSystemError(.open, path: path, code: code)

        await #expect(throws: FileStoreError(opened, operation: .write, path: path)) {
            try await memory.save(Data(), to: path)
        }
        await #expect(throws: FileStoreError(opened, operation: .read, path: path)) { try await memory.load(path) }
        await #expect(
            throws: FileStoreError(FileSystemError(.remove, path: path, code: code), operation: .delete, path: path)
        ) {
            try await memory.delete(path)
        }
    }

    @Test func corruptDataFailsJSONDecodingLikeATornFileOnDisk() async throws {
        try await withTemporaryFolder { folder in
            let disk = DiskFileStore(directory: .custom(folder), namespace: "app")
            let memory = InMemoryFileStore(faults: StoreFaults([.always(.read, with: .corruptData)]))
            let profile = ["name": "Ada", "email": "ada@example.com"]
            try await disk.saveJSON(profile, to: "profile.json")
            try await memory.saveJSON(profile, to: "profile.json")
            let url = try disk.fileURL(for: "profile.json")
            let whole = try Data(contentsOf: url)
            try whole.prefix(whole.count / 2).write(to: url)

            for store in [disk, memory] as [any FileStoring] {
                await #expect {
                    let _: [String: String] = try await store.loadJSON("profile.json")
                } throws: { error in
                    guard case FileStoreError.decodingFailed(let path, _) = error else { return false }
                    return path == "profile.json"
                }
            }
            #expect(try await disk.load("profile.json") == memory.load("profile.json"))
        }
    }
}
