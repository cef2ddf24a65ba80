import ForgeFileStore
import ForgeStorageTesting
import Foundation
import Testing

/// Each injected fault on ``InMemoryFileStore`` surfaces as ``DiskFileStore`` reports the same `errno`.
struct InMemoryFileStoreFaultTests {
    let faults = StoreFaults()
    let store: InMemoryFileStore
    let path = "avatars/current.jpg"

    init() {
        store = InMemoryFileStore(faults: faults)
    }

    @Test(arguments: [
        (StoreFailure.outOfSpace, FileStoreError.Reason.outOfSpace),
        (.permissionDenied, .permissionDenied),
        (.deviceLocked, .permissionDenied),
    ])
    func eachOperationFailsWithItsOwnCaseAndTheReason(failure: StoreFailure, reason: FileStoreError.Reason) async throws
    {
        try await store.save(Data("old".utf8), to: path)
        faults.failAlways(.all, with: failure)
        await #expect(throws: FileStoreError.writeFailed(path: path, reason: reason)) {
            try await store.save(Data("new".utf8), to: path)
        }
        await #expect(throws: FileStoreError.readFailed(path: path, reason: reason)) { try await store.load(path) }
        await #expect(throws: FileStoreError.deleteFailed(path: path, reason: reason)) { try await store.delete(path) }
        await #expect(throws: FileStoreError.listFailed(path: "avatars", reason: reason)) {
            try await store.list(in: "avatars")
        }
        await #expect(throws: FileStoreError.listFailed(path: "", reason: reason)) { try await store.totalSize() }
        await #expect(throws: FileStoreError.deleteFailed(path: "", reason: reason)) { try await store.deleteAll() }
        faults.removeAll()
        #expect(try await store.load(path) == Data("old".utf8))
        #expect(try await store.list(in: "") == ["avatars/"])
    }

    @Test func corruptDataLoadsATornCopyThatJSONDecodingRefuses() async throws {
        try await store.saveJSON(["name": "Ada", "email": "ada@example.com"], to: "profile.json")
        faults.failNext(.read, at: "profile.json", with: .corruptData)
        await #expect {
            let _: [String: String] = try await store.loadJSON("profile.json")
        } throws: { error in
            guard case FileStoreError.decodingFailed(let path, _) = error else { return false }
            return path == "profile.json"
        }
        let whole: [String: String] = try await store.loadJSON("profile.json")
        #expect(whole["name"] == "Ada")
    }

    @Test func corruptDataOfAMissingFileIsStillNotFound() async {
        faults.failNext(.read, with: .corruptData)
        await #expect(throws: FileStoreError.notFound(path: "missing.txt")) { try await store.load("missing.txt") }
    }

    @Test func corruptDataOnAWriteFailsAsAnIOErrorDoes() async {
        faults.failNext(.write, with: .corruptData)
        await #expect(throws: FileStoreError.writeFailed(path: path, reason: .ioError)) {
            try await store.save(Data(), to: path)
        }
        #expect(!store.exists(path))
    }

    @Test func existsIsFalseOnlyWhenPermissionIsDenied() async throws {
        try await store.save(Data(), to: path)
        faults.failNext(.exists, with: .deviceLocked)
        #expect(store.exists(path))
        faults.failNext(.exists, with: .permissionDenied)
        #expect(!store.exists(path))
    }

    @Test func anInvalidPathIsRefusedBeforeAFaultIsSpent() async {
        faults.failNext(.write, with: .outOfSpace)
        await #expect(throws: FileStoreError.self) { try await store.save(Data(), to: "/absolute") }
        #expect(faults.pending.count == 1)
    }

    @Test func yourOwnErrorIsThrownAsItIs() async {
        struct Boom: Error, Equatable {}
        faults.failAlways(.all, with: .error(Boom()))
        await #expect(throws: Boom()) { try await store.save(Data(), to: path) }
        await #expect(throws: Boom()) { try await store.load(path) }
        await #expect(throws: Boom()) { try await store.delete(path) }
        await #expect(throws: Boom()) { try await store.list(in: "avatars") }
        await #expect(throws: Boom()) { try await store.deleteAll() }
    }
}
