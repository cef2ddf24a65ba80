import ForgeCore
import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// Faults injected at the backend contract reach every store the same way: the disk store, a store a user wrote and
/// the in-memory twin fail alike under the same fault, and log alike.
struct FaultInjectingKVStoreTests {
    let key = KVKey<[String]>("taskflow.recentProjects")

    /// Runs `body` with a store of each kind, all injecting faults from `faults` and logging to `log`.
    private func withStores(
        _ faults: StoreFaults,
        log: OperationLog? = nil,
        _ body: ([any KVStoring]) throws -> Void
    ) async throws {
        try await withTemporaryFolder { folder in
            let disk = DiskKVStore(directory: .custom(folder), namespace: "app")
            let table = TableKVStore(table: TableKVStore.Table(), namespace: "app")
            try body([
                disk.injectingFaults(faults, log: log, label: "disk"),
                table.injectingFaults(faults, log: log, label: "table"),
                InMemoryKVStore(label: "memory", faults: faults, log: log),
            ])
        }
    }

    @Test func aFailedWriteIsTheSameErrorOnEveryStoreAndKeepsThePreviousValue() async throws {
        let faults = StoreFaults()
        try await withStores(faults) { stores in
            for store in stores {
                try store.set(key, value: ["kept"])
                faults.failNext(.write, with: .outOfSpace)
                let error = #expect(throws: KVStoreError.self) { try store.set(key, value: ["lost"]) }
                #expect(error == .writeFailed(key: key.key, underlying: .outOfSpace))
                #expect(store.get(key) == ["kept"])
            }
        }
    }

    @Test func damagedDataReadsAsNilAndThrowsDecodingFailedOnEveryStore() async throws {
        let faults = StoreFaults()
        try await withStores(faults) { stores in
            for store in stores {
                try store.set(key, value: ["a"])
                faults.failNext(.read, with: .corruptData)
                #expect(store.get(key) == nil)
                faults.failNext(.read, with: .corruptData)
                #expect {
                    try store.value(for: key)
                } throws: { error in
                    guard case KVStoreError.decodingFailed(let name, _) = error else { return false }
                    return name == key.key
                }
                #expect(store.get(key) == ["a"], "a fault spent, the value reads again")
            }
        }
    }

    @Test func aHiddenOrFailedListingIsTheSameOnEveryStore() async throws {
        let faults = StoreFaults()
        try await withStores(faults) { stores in
            for store in stores {
                try store.set(key, value: [])
                faults.failNext(.exists, with: .permissionDenied)
                #expect(!store.contains(key))
                faults.failNext(.list, with: .permissionDenied)
                #expect(throws: KVStoreError.listFailed(underlying: .permissionDenied)) { try store.keys() }
                faults.failNext(.deleteAll, with: .permissionDenied)
                #expect(throws: KVStoreError.self) { try store.removeAll() }
                #expect(try store.keys() == [key.key])
            }
        }
    }

    @Test func everyStoreLogsTheSameCallsUnderItsLabel() async throws {
        let log = OperationLog()
        try await withStores(StoreFaults(), log: log) { stores in
            for store in stores {
                try store.set(key, value: [])
                _ = store.get(key)
            }
        }
        let calls = Dictionary(grouping: log.entries, by: \.store).mapValues { $0.map(\.operation) }
        #expect(calls["disk"] == [.write, .read])
        #expect(calls["disk"] == calls["table"])
        #expect(calls["disk"] == calls["memory"])
    }
}

/// Faults reach an asynchronous store (a server's) as they reach the synchronous ones.
struct FaultInjectingAsyncKVStoreTests {
    @Test func anAsyncStoreFailsAsTheTwinDoesUnderTheSameFault() async throws {
        let faults = StoreFaults()
        let log = OperationLog()
        let stores: [any AsyncKVStoring] = [
            AsyncTableKVStore(table: TableKVStore.Table(), namespace: "app")
                .injectingFaults(faults, log: log, label: "async"),
            InMemoryKVStore(label: "memory", faults: faults, log: log),
        ]
        let key = KVKey<Int>("count")
        for store in stores {
            try await store.set(key, value: 1)
            faults.failNext(.write, with: .outOfSpace)
            await #expect(throws: KVStoreError.writeFailed(key: key.key, underlying: .outOfSpace)) {
                try await store.set(key, value: 2)
            }
            faults.failNext(.read, with: .corruptData)
            await #expect(throws: KVStoreError.self) { try await store.value(for: key) }
            #expect(try await store.get(key) == 1)
        }
        let calls = Dictionary(grouping: log.entries, by: \.store).mapValues { $0.map(\.operation) }
        #expect(calls["async"] == calls["memory"])
    }
}
