// forgestorage-kvstore.md's API reference samples (get.swift, set.swift, remove.swift, contains.swift, removeAll.swift,
// ErrorHandling.swift), each run on the in-memory store, a disk store in a fresh temporary folder and the store a
// user writes against the reference (`DictionaryKVStore`).
import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

struct KVStoreAPISampleTests {
    /// Runs `body` on a fresh store of each kind.
    private func withEachStore(_ body: (any KVStoring) throws -> Void) async throws {
        try body(InMemoryKVStore())
        try await withTemporaryFolder { folder in
            try body(DiskKVStore(directory: .custom(folder), namespace: "taskflow-settings"))
        }
        try body(DictionaryKVStore())
    }

    @Test func getReturnsNilWhenNothingIsSet() async throws {
        try await withEachStore { store in
            // forgestorage-kvstore.md, "get.swift"
            let count = store.get(TaskKeys.taskCount) ?? 0  // Int
            let name = store.get(TaskKeys.projectName)  // String? — nil if not set

            #expect(count == 0)
            #expect(name == nil)
        }
    }

    @Test func setStoresAndOverwrites() async throws {
        try await withEachStore { store in
            try store.set(TaskKeys.taskCount, value: 7)

            // forgestorage-kvstore.md, "set.swift"
            try store.set(TaskKeys.taskCount, value: 42)
            try store.set(TaskKeys.projectName, value: "TaskFlow v2")

            #expect(store.get(TaskKeys.taskCount) == 42)
            #expect(store.get(TaskKeys.projectName) == "TaskFlow v2")
        }
    }

    @Test func removeMakesReadsReturnNil() async throws {
        try await withEachStore { store in
            try store.set(TaskKeys.projectName, value: "TaskFlow v2")

            // DIVERGES: `_ =` added before `get`, which the reference calls as a statement (a warning).
            // forgestorage-kvstore.md, "remove.swift"
            try store.remove(TaskKeys.projectName)
            _ = store.get(TaskKeys.projectName)  // nil

            #expect(store.get(TaskKeys.projectName) == nil)
        }
    }

    @Test func containsIsTrueOnceAValueIsSet() async throws {
        try await withEachStore { store in
            #expect(!store.contains(TaskKeys.taskCount))

            // DIVERGES: `_ =` added before each `contains`, which the reference calls as a statement (a warning).
            // forgestorage-kvstore.md, "contains.swift"
            _ = store.contains(TaskKeys.taskCount)  // false (not yet set)
            try store.set(TaskKeys.taskCount, value: 1)
            _ = store.contains(TaskKeys.taskCount)  // true

            #expect(store.contains(TaskKeys.taskCount))
        }
    }

    @Test func removeAllRemovesEveryValue() async throws {
        try await withEachStore { store in
            try store.set(TaskKeys.taskCount, value: 1)
            try store.set(TaskKeys.projectName, value: "TaskFlow v2")
            try store.set(CacheKeys.lastPurgeDate, value: Date(timeIntervalSince1970: 0))

            // forgestorage-kvstore.md, "removeAll.swift"
            try store.removeAll()

            #expect(!store.contains(TaskKeys.taskCount))
            #expect(!store.contains(TaskKeys.projectName))
            #expect(!store.contains(CacheKeys.lastPurgeDate))
        }
    }

    /// forgestorage-kvstore.md's "ErrorHandling.swift", on `store` and `settings`.
    private func errorHandlingSample(store: any KVStoring, settings: TaskSettings) throws {
        // forgestorage-kvstore.md, "ErrorHandling.swift"
        do {
            try store.set(TaskKeys.settings, value: settings)
        } catch let error as KVStoreError {
            switch error {
            case .encodingFailed(let key, let underlying):
                print("Encoding failed for '\(key)': \(underlying)")
            case .writeFailed(let key, let underlying):
                print("Write failed for '\(key)': \(underlying)")
            default:
                print(error.localizedDescription)
            }
        }
    }

    @Test func errorHandlingCatchesEveryFailedSetAsAKVStoreError() async throws {
        let settings = TaskSettings(theme: "dark", fontScale: 1.2)
        try await withEachStore { store in
            try errorHandlingSample(store: store, settings: settings)
            #expect(store.get(TaskKeys.settings) == settings)

            // An encoding failure: JSON has no NaN. The sample catches it, and the stored value is kept.
            try errorHandlingSample(store: store, settings: TaskSettings(theme: "light", fontScale: .nan))
            #expect(store.get(TaskKeys.settings) == settings)
        }

        // A write failure, injected: the sample catches it too, and nothing is stored.
        let faults = StoreFaults()
        faults.failNext(.write, with: .outOfSpace)
        let store = InMemoryKVStore(faults: faults)
        try errorHandlingSample(store: store, settings: settings)
        #expect(faults.injectedCount == 1)
        #expect(store.get(TaskKeys.settings) == nil)
    }
}
