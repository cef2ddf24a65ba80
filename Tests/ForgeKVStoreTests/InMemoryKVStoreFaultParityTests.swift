import ForgeCore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeKVStore

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
        let system = FileSystemError(.open, path: key.key, code: ENOSPC)
        // DiskKVStore throws what the store family's one mapping makes of the FileSystemError it meets.
        #expect(error == KVStoreError(system, writing: key.key))
        #expect(error == .writeFailed(key: key.key, underlying: .outOfSpace))
        #expect(error?.reason == .outOfSpace)
    }

    @Test(arguments: [
        (StoreFailure.outOfSpace, ENOSPC), (.permissionDenied, EACCES), (.deviceLocked, EPERM), (.corruptData, EIO),
    ])
    func aFailedRemoveIsWhatTheMappingMakesOfTheFaultsErrno(failure: StoreFailure, code: Int32) throws {
        let memory = InMemoryKVStore(faults: StoreFaults([.always(.changes, with: failure)]))
        let removing = #expect(throws: KVStoreError.self) { try memory.remove(key) }
        #expect(removing == KVStoreError(FileSystemError(.remove, path: key.key, code: code), removing: key.key))
        let removingAll = #expect(throws: KVStoreError.self) { try memory.removeAll() }
        #expect(removingAll == KVStoreError(FileSystemError(.remove, path: "", code: code), removing: nil))
    }

    @Test func aDamagedValueThrowsDecodingFailedFromValueForLikeADamagedFileOnDisk() async throws {
        try await withTemporaryFolder { folder in
            let disk = DiskKVStore(directory: .custom(folder), namespace: "app")
            try disk.set(key, value: ["a"])
            try Data("[\"a\", \"tr".utf8).write(to: try #require(disk.fileURL(for: key)))
            let memory = InMemoryKVStore(faults: StoreFaults([.always(.read, with: .corruptData)]))
            try memory.set(key, value: ["a"])

            for store in [disk, memory] as [any KVStoring] {
                #expect {
                    try store.value(for: key)
                } throws: { error in
                    guard case KVStoreError.decodingFailed(let name, _) = error else { return false }
                    return name == key.key
                }
            }
            // Nothing stored: nil on both, fault or not.
            #expect(try memory.value(for: KVKey<Int>("unset")) == nil)
        }
    }

    @Test(arguments: [
        (StoreFailure.permissionDenied, EACCES), (.deviceLocked, EPERM), (.outOfSpace, ENOSPC),
    ])
    func aFailedReadIsWhatTheMappingMakesOfTheFaultsErrno(failure: StoreFailure, code: Int32) throws {
        let memory = InMemoryKVStore(faults: StoreFaults([.always(.read, with: failure)]))
        try memory.set(key, value: ["kept"])
        let error = #expect(throws: KVStoreError.self) { try memory.value(for: key) }
        #expect(error == KVStoreError(FileSystemError(.open, path: key.key, code: code), reading: key.key))
        #expect(error?.key == key.key)
        #expect(memory.get(key) == nil)
        #expect(memory.contains(key), "a failed read loses nothing")
    }

    @Test func aFailedListingIsWhatTheMappingMakesOfTheFaultsErrno() throws {
        let memory = InMemoryKVStore(faults: StoreFaults([.next(.list, with: .permissionDenied)]))
        try memory.set(key, value: [])
        let error = #expect(throws: KVStoreError.self) { try memory.keys() }
        #expect(error == KVStoreError(listing: FileSystemError(.list, path: "", code: EACCES)))
        #expect(error == .listFailed(underlying: .permissionDenied))
        #expect(try memory.keys() == [key.key])
    }
}
