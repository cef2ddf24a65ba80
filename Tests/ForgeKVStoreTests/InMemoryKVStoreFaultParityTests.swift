import ForgeCore
import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// An injected fault on ``InMemoryKVStore`` looks to the caller exactly as the disk store's failure does.
struct InMemoryKVStoreFaultParityTests {
    let key = KVKey<[String]>("taskflow.recentProjects")

    @Test func corruptDataReadsAsNilLikeADamagedFileOnDisk() async throws {
        try await withTemporaryFolder { folder in
            let disk = DiskKVStore(directory: .custom(folder), namespace: "app")
            try disk.set(key, value: ["a", "b"])
            let url = try #require(disk.fileURL(for: key))
            try Data("[\"a\", \"tr".utf8).write(to: url)

            let memory = InMemoryKVStore(faults: StoreFaults([.always(.read, with: .corruptData)]))
            try memory.set(key, value: ["a", "b"])

            #expect(disk.get(key) == nil)
            #expect(memory.get(key) == nil)
            #expect(disk.contains(key) == memory.contains(key))
        }
    }

    @Test func aFailedWriteNamesTheKeyAndTheSystemReasonAsTheDiskStoreDoes() throws {
        let memory = InMemoryKVStore(faults: StoreFaults([.always(.write, with: .outOfSpace)]))
        let error = #expect(throws: KVStoreError.self) { try memory.set(key, value: []) }
        let system = FileSystemError(.open, path: key.key, code: 28)
        // DiskKVStore throws `.writeFailed(key:underlying:)` with its FileSystemError's description.
        #expect(error == .writeFailed(key: key.key, underlying: system.description))
        #expect(system.isOutOfSpace)
    }
}
