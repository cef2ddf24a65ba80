import ForgeKVStore
import ForgeStorageTesting
import Testing

struct StoreFaultsTests {
    let key = KVKey<Int>("count")

    @Test func failNextFailsTheNextNMatchingOperationsThenLetsThemRun() throws {
        let faults = StoreFaults()
        let store = InMemoryKVStore(faults: faults)
        faults.failNext(.write, times: 2, with: .outOfSpace)
        #expect(throws: KVStoreError.self) { try store.set(key, value: 1) }
        #expect(throws: KVStoreError.self) { try store.set(key, value: 2) }
        try store.set(key, value: 3)
        #expect(store.get(key) == 3)
        #expect(faults.injectedCount == 2)
        #expect(faults.pending.isEmpty)
    }

    @Test func failAlwaysFailsEveryMatchingOperationUntilRemoved() throws {
        let faults = StoreFaults()
        let store = InMemoryKVStore(faults: faults)
        faults.failAlways([.write, .delete], with: .permissionDenied)
        for value in 0..<5 {
            #expect(throws: KVStoreError.self) { try store.set(key, value: value) }
        }
        #expect(throws: KVStoreError.self) { try store.remove(key) }
        #expect(faults.injectedCount == 6)
        faults.removeAll()
        try store.set(key, value: 9)
        #expect(store.get(key) == 9)
    }

    @Test func aFaultForOneKeyLeavesTheOthersAlone() throws {
        let faults = StoreFaults()
        let store = InMemoryKVStore(faults: faults)
        faults.failAlways(.all, at: "count", with: .deviceLocked)
        try store.set(KVKey<Int>("other"), value: 1)
        #expect(store.get(KVKey<Int>("other")) == 1)
        #expect(throws: KVStoreError.self) { try store.set(key, value: 1) }
        // A fault with a target never matches a whole-store operation.
        try store.removeAll()
        #expect(store.count == 0)
    }

    @Test func operationsOfAnotherKindAreNotFailed() throws {
        let faults = StoreFaults([.always(.delete, with: .permissionDenied)])
        let store = InMemoryKVStore(faults: faults)
        try store.set(key, value: 1)
        #expect(store.get(key) == 1)
        #expect(throws: KVStoreError.self) { try store.remove(key) }
        #expect(store.get(key) == 1)
    }

    @Test func faultsGivenAtCreationApplyFromTheFirstCallAndAreTriedInOrder() throws {
        struct First: Error, Equatable {}
        struct Second: Error, Equatable {}
        let store = InMemoryKVStore(
            faults: StoreFaults([.next(.write, with: .error(First())), .next(.write, times: 2, with: .error(Second()))])
        )
        #expect(throws: First()) { try store.set(key, value: 1) }
        #expect(throws: Second()) { try store.set(key, value: 1) }
        #expect(throws: Second()) { try store.set(key, value: 1) }
        try store.set(key, value: 1)
    }

    @Test func oneFaultsObjectCanServeSeveralStores() throws {
        let faults = StoreFaults()
        let first = InMemoryKVStore(faults: faults)
        let second = InMemoryKVStore(faults: faults)
        faults.failNext(.write, with: .outOfSpace)
        #expect(throws: KVStoreError.self) { try first.set(key, value: 1) }
        try second.set(key, value: 1)
    }

    @Test func concurrentOperationsSpendACountedFaultExactlyOnceEach() async {
        let faults = StoreFaults()
        let store = InMemoryKVStore(faults: faults)
        faults.failNext(.write, times: 50, with: .outOfSpace)
        let failures = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var failed = 0
                    for index in 0..<25 {
                        do { try store.set(KVKey<Int>("k\(task).\(index)"), value: index) } catch { failed += 1 }
                    }
                    return failed
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 50)
        #expect(faults.injectedCount == 50)
        #expect(store.count == 150)
    }

    @Test func addingFaultsWhileOtherTasksRunIsSafe() async {
        let faults = StoreFaults()
        let store = InMemoryKVStore(faults: faults)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for _ in 0..<200 { faults.failNext(.write, with: .outOfSpace) }
            }
            group.addTask {
                for index in 0..<200 { try? store.set(KVKey<Int>("k\(index)"), value: index) }
            }
        }
        #expect(faults.injectedCount + faults.pending.count == 200)
        #expect(store.count == 200 - faults.injectedCount)
    }
}
