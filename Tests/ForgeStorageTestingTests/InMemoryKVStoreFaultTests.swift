import ForgeKVStore
import ForgeStorageTesting
import Foundation
import Testing

/// Each injected fault on ``InMemoryKVStore`` surfaces as ``DiskKVStore`` reports it.
struct InMemoryKVStoreFaultTests {
    let faults = StoreFaults()
    let store: InMemoryKVStore
    let key = KVKey<String>("taskflow.projectName")

    init() {
        store = InMemoryKVStore(faults: faults)
    }

    @Test(arguments: [
        (StoreFailure.outOfSpace, FailureReason.outOfSpace),
        (.permissionDenied, .permissionDenied),
        (.deviceLocked, .permissionDenied),
        (.corruptData, .ioError),
    ])
    func aFailedWriteIsWriteFailedWithTheSystemReasonAndKeepsTheOldValue(
        failure: StoreFailure,
        reason: FailureReason
    ) throws {
        try store.set(key, value: "old")
        faults.failNext(.write, with: failure)
        #expect(throws: KVStoreError.writeFailed(key: key.key, underlying: reason)) {
            try store.set(key, value: "new")
        }
        #expect(store.get(key) == "old")
    }

    @Test func aFailedRemoveIsRemoveFailedAndKeepsTheValue() throws {
        try store.set(key, value: "kept")
        faults.failNext(.delete, with: .permissionDenied)
        #expect(throws: KVStoreError.removeFailed(key: key.key, underlying: .permissionDenied)) {
            try store.remove(key)
        }
        #expect(store.get(key) == "kept")
    }

    @Test func aFailedRemoveAllIsRemoveAllFailedAndKeepsEveryValue() throws {
        try store.set(key, value: "kept")
        faults.failNext(.deleteAll, with: .deviceLocked)
        #expect(throws: KVStoreError.removeAllFailed(underlying: .permissionDenied)) {
            try store.removeAll()
        }
        #expect(store.count == 1)
    }

    @Test(arguments: [StoreFailure.outOfSpace, .permissionDenied, .deviceLocked, .corruptData])
    func anyReadFaultMakesGetReturnNilAsAnUnreadableFileDoes(failure: StoreFailure) throws {
        try store.set(key, value: "stored")
        faults.failNext(.read, with: failure)
        #expect(store.get(key) == nil)
        #expect(store.get(key) == "stored")
    }

    @Test func aReadFaultWithYourOwnErrorAlsoReadsAsNil() throws {
        struct Boom: Error {}
        try store.set(key, value: "stored")
        faults.failNext(.read, with: .error(Boom()))
        #expect(store.get(key) == nil)
    }

    @Test func containsIsFalseOnlyWhenPermissionIsDeniedOrForYourOwnError() throws {
        struct Boom: Error {}
        try store.set(key, value: "stored")
        for failure in [StoreFailure.outOfSpace, .deviceLocked, .corruptData] {
            faults.failNext(.exists, with: failure)
            #expect(store.contains(key))
        }
        faults.failNext(.exists, with: .permissionDenied)
        #expect(!store.contains(key))
        faults.failNext(.exists, with: .error(Boom()))
        #expect(!store.contains(key))
        #expect(faults.injectedCount == 5)
    }

    @Test func yourOwnErrorIsThrownAsItIs() {
        struct Boom: Error, Equatable {}
        faults.failAlways(.changes, with: .error(Boom()))
        #expect(throws: Boom()) { try store.set(key, value: "x") }
        #expect(throws: Boom()) { try store.remove(key) }
        #expect(throws: Boom()) { try store.removeAll() }
    }

    @Test func anUnencodableValueIsRefusedBeforeAFaultIsSpent() {
        faults.failNext(.write, with: .outOfSpace)
        let error = #expect(throws: KVStoreError.self) { try store.set(KVKey<Double>("ratio"), value: .nan) }
        #expect(error?.key == "ratio")
        if case .encodingFailed = error {
        } else {
            Issue.record("expected encodingFailed, got \(String(describing: error))")
        }
        #expect(faults.pending.count == 1)
    }
}
