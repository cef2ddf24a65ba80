import ForgeCrypt
import ForgeFileStore
import ForgeKVStore
import ForgePostgres
import ForgeStorageTesting
import Foundation
import Testing

/// The fault kit reaches the PostgreSQL stores at their backend contracts, as it reaches the disk stores: a test of a
/// server's failure paths runs on the store the server runs on.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresFaultInjectionTests {
    @Test func aFaultFailsAPostgresKVStoreAsItFailsTheDiskStore() async throws {
        try await TestServer.withStores { stores in
            let faults = StoreFaults()
            let store = stores[0].injectingFaults(faults)
            try await store.set(KVKey<Int>("count"), value: 1)
            faults.failNext(.write, with: .outOfSpace)
            await #expect(throws: KVStoreError.writeFailed(key: "count", underlying: .outOfSpace)) {
                try await store.set(KVKey<Int>("count"), value: 2)
            }
            #expect(try await store.get(KVKey<Int>("count")) == 1)
        }
    }

    @Test func aFaultFailsAPostgresFileStoreAsItFailsTheDiskStore() async throws {
        try await TestServer.withFileStores { first, _ in
            let faults = StoreFaults()
            let store = first.injectingFaults(faults)
            try await store.save(Data("0123456789".utf8), to: "a.bin")
            faults.failNext(.read, with: .corruptData)
            #expect(try await store.load("a.bin") == Data("01234".utf8))
            faults.failNext(.list, with: .permissionDenied)
            await #expect(throws: FileStoreError.self) { try await store.list(in: "") }
        }
    }

    @Test func aFaultFailsPostgresCryptAsItFailsTheKeychain() async throws {
        try await TestServer.withCrypts { stores in
            let faults = StoreFaults()
            let store = stores[0].injectingFaults(faults)
            let key = CryptKey<String>(key: "auth.token")
            try await store.set("secret", for: key)
            faults.failNext(.read, with: .deviceLocked)
            await #expect(throws: CryptStoreError.notAccessibleNow(key: key.key)) { try await store.get(key) }
            #expect(try await store.get(key) == "secret")
        }
    }
}
