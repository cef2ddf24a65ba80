import ForgeCore
import ForgeCrypt
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// Faults injected at the backend contract reach every secret store the same way: the vault, a store a user wrote
/// and the in-memory twin fail alike under the same fault, and log alike.
struct FaultInjectingCryptTests {
    let key = CryptKey<String>(key: "auth.token")

    /// Runs `body` with a store of each kind, all injecting faults from `faults` and logging to `log`.
    private func withStores(
        _ faults: StoreFaults,
        log: OperationLog? = nil,
        _ body: ([any CryptStoring]) throws -> Void
    ) async throws {
        try await withTemporaryFolder { folder in
            let vault = try EncryptedFileCrypt(
                directory: .custom(folder),
                namespace: "vault",
                masterKey: .keyFile(folder.appendingPathComponent("keys/master.key"))
            )
            let table = TableCrypt(table: TableCrypt.Table(), namespace: "vault")
            try body([
                vault.injectingFaults(faults, log: log, label: "vault"),
                table.injectingFaults(faults, log: log, label: "table"),
                InMemoryCrypt(label: "memory", faults: faults, log: log),
            ])
        }
    }

    @Test func aFailedSetOrALockedDeviceIsTheSameErrorOnEveryStore() async throws {
        let faults = StoreFaults()
        try await withStores(faults) { stores in
            for store in stores {
                try store.set("kept", for: key)
                faults.failNext(.write, with: .outOfSpace)
                let writing = #expect(throws: CryptStoreError.self) { try store.set("lost", for: key) }
                #expect(writing == .writeFailed(key: key.key, underlying: .outOfSpace))
                #expect(try store.get(key) == "kept")
                faults.failNext(.read, with: .deviceLocked)
                let reading = #expect(throws: CryptStoreError.self) { try store.get(key) }
                #expect(reading == .notAccessibleNow(key: key.key))
            }
        }
    }

    @Test func damagedBytesFailAuthenticationAndAHiddenSecretIsNotContainedOnEveryStore() async throws {
        let faults = StoreFaults()
        try await withStores(faults) { stores in
            for store in stores {
                try store.set("secret", for: key)
                faults.failNext(.read, with: .corruptData)
                #expect(throws: CryptStoreError.tamperedItem(key: key.key)) { try store.get(key) }
                faults.failNext(.exists, with: .permissionDenied)
                #expect(try !store.contains(key))
                #expect(try store.keys() == [key.key])
            }
        }
    }

    /// `itemCount()` is asked of the store as a listing is, so a fault fails it alike on every store, and the wrapper
    /// counts as its store counts (the vault, without opening an item).
    @Test func aFailedListingFailsTheCountAlikeOnEveryStore() async throws {
        let faults = StoreFaults()
        let log = OperationLog()
        try await withStores(faults, log: log) { stores in
            for case let store as any CryptStoring & CryptBackend in stores {
                try store.set("secret", for: key)
                faults.failNext(.list, with: .permissionDenied)
                let counting = #expect(throws: CryptStoreError.self) { try store.itemCount() }
                #expect(counting == .listFailed(underlying: .permissionDenied))
                #expect(try store.itemCount() == 1)
            }
        }
        let calls = Dictionary(grouping: log.entries, by: \.store).mapValues { $0.map(\.operation) }
        #expect(calls["vault"] == [.write, .list, .list])
        #expect(calls["vault"] == calls["table"])
        #expect(calls["vault"] == calls["memory"])
    }

    @Test func everyStoreLogsTheSameCallsUnderItsLabel() async throws {
        let log = OperationLog()
        try await withStores(StoreFaults(), log: log) { stores in
            for store in stores {
                try store.set("secret", for: key)
                _ = try store.get(key)
            }
        }
        let calls = Dictionary(grouping: log.entries, by: \.store).mapValues { $0.map(\.operation) }
        #expect(calls["vault"] == [.write, .read])
        #expect(calls["vault"] == calls["table"])
        #expect(calls["vault"] == calls["memory"])
    }
}
