import ForgeCrypt
import ForgeFileStore
import ForgeKVStore
import ForgeStorageTesting
import Foundation
import Testing

struct OperationLogTests {
    let log = OperationLog()

    @Test func everyCallIsLoggedInOrderAcrossStores() async throws {
        let prefs = InMemoryKVStore(label: "prefs", log: log)
        let files = InMemoryFileStore(label: "files", log: log)
        let keychain = InMemoryCrypt(label: "keychain", log: log)

        try prefs.set(KVKey<Int>("a"), value: 1)
        _ = prefs.get(KVKey<Int>("a"))
        _ = prefs.contains(KVKey<Int>("a"))
        try await files.save(Data("x".utf8), to: "docs/x.txt")
        _ = try await files.load("docs/x.txt")
        _ = files.exists("docs/x.txt")
        _ = try await files.list(in: "docs")
        _ = try await files.totalSize()
        try keychain.set("t", for: CryptKey<String>(key: "token"))
        _ = try keychain.get(CryptKey<String>(key: "token"))
        _ = try keychain.contains(CryptKey<String>(key: "token"))
        try keychain.delete(CryptKey<String>(key: "token"))
        try await files.delete("docs/x.txt")
        try prefs.remove(KVKey<Int>("a"))
        try keychain.deleteAll()
        try await files.deleteAll()
        try prefs.removeAll()

        #expect(
            log.entries.map(\.description) == [
                "prefs write a", "prefs read a", "prefs exists a",
                "files write docs/x.txt", "files read docs/x.txt", "files exists docs/x.txt", "files list docs",
                "files list",
                "keychain write token", "keychain read token", "keychain exists token", "keychain delete token",
                "files delete docs/x.txt", "prefs delete a",
                "keychain deleteAll", "files deleteAll", "prefs deleteAll",
            ]
        )
        #expect(log.writes.count == 9)
        #expect(log.entries(in: "files").count == 7)
        #expect(log.entries(.read).map(\.store) == ["prefs", "files", "keychain"])
    }

    @Test func listingASecretStoresKeysIsLoggedAsAListOfTheWholeStore() throws {
        let faults = StoreFaults([.next(.list, with: .permissionDenied)])
        let keychain = InMemoryCrypt(label: "keychain", faults: faults, log: log)
        #expect(throws: CryptStoreError.self) { try keychain.keys() }
        _ = try keychain.keys()
        #expect(log.entries.map(\.description) == ["keychain list (failed)", "keychain list"])
    }

    @Test func aCallFailedByAFaultIsLoggedAsFailed() throws {
        let faults = StoreFaults([.next(.write, with: .outOfSpace)])
        let prefs = InMemoryKVStore(label: "prefs", faults: faults, log: log)
        #expect(throws: KVStoreError.self) { try prefs.set(KVKey<Int>("a"), value: 1) }
        try prefs.set(KVKey<Int>("a"), value: 1)
        #expect(
            log.entries == [
                LoggedOperation(.write, "a", in: "prefs", failed: true),
                LoggedOperation(.write, "a", in: "prefs"),
            ]
        )
        #expect(log.entries.first?.description == "prefs write a (failed)")
    }

    @Test func callsRefusedBeforeReachingStorageAreNotLogged() async throws {
        let files = InMemoryFileStore(label: "files", log: log)
        let prefs = InMemoryKVStore(label: "prefs", log: log)
        await #expect(throws: FileStoreError.self) { try await files.save(Data(), to: "../escape") }
        #expect(!files.exists("/absolute"))
        #expect(throws: KVStoreError.self) { try prefs.set(KVKey<Double>("nan"), value: .nan) }
        #expect(log.entries.isEmpty)
    }

    @Test func removeAllForgetsTheEntries() throws {
        let prefs = InMemoryKVStore(log: log)
        try prefs.set(KVKey<Int>("a"), value: 1)
        log.removeAll()
        _ = prefs.get(KVKey<Int>("a"))
        #expect(log.entries == [LoggedOperation(.read, "a", in: "kv")])
    }

    @Test func concurrentCallsAreAllLogged() async {
        let prefs = InMemoryKVStore(log: log)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<50 { try? prefs.set(KVKey<Int>("k\(task).\(index)"), value: index) }
                }
            }
        }
        #expect(log.entries.count == 400)
        #expect(Set(log.entries.compactMap(\.target)).count == 400)
        // Each task's own calls keep their order.
        let firstTask = log.entries.compactMap(\.target).filter { $0.hasPrefix("k0.") }
        #expect(firstTask == (0..<50).map { "k0.\($0)" })
    }
}
