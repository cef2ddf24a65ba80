import ForgeCrypt
import ForgePostgres
import Foundation
import Testing

/// Stores on one namespace at once: writes of one key leave one whole secret, and stores starting together agree on
/// one header.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresCryptConcurrencyTests {
    @Test func twoStoresWritingOneKeyAtOnceLeaveOneWholeSecret() async throws {
        try await TestServer.withCrypts(2) { stores in
            let key = CryptKey<String>(key: "contended")
            let secrets = [String(repeating: "a", count: 100_000), String(repeating: "b", count: 100_000)]
            try await withThrowingTaskGroup(of: [String?].self) { group in
                for (store, secret) in zip(stores, secrets) {
                    group.addTask {
                        for _ in 0..<10 { try await store.set(secret, for: key) }
                        return []
                    }
                }
                // Reads meanwhile see nothing yet, or one whole secret.
                group.addTask {
                    var reads: [String?] = []
                    for _ in 0..<20 { reads.append(try await stores[0].get(key)) }
                    return reads
                }
                for try await reads in group {
                    for read in reads { #expect(read == nil || secrets.contains(read ?? "")) }
                }
            }
            let final = try #require(try await stores[1].get(key))
            #expect(secrets.contains(final))
            #expect(try await stores[0].get(key) == final)
            let rows = try await TestServer.rawSecretRows(of: stores[0].namespace, client: stores[0].client)
            #expect(rows.count == 2, "the header and one item")
        }
    }

    @Test func storesPreparingAtOnceAgreeOnOneHeader() async throws {
        let masterKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        try await TestServer.withCrypts(2, masterKey: masterKey) { clients in
            // Four stores on a namespace no store has prepared yet, two on each client.
            let stores = (0..<4)
                .map {
                    PostgresCrypt(client: clients[$0 % 2].client, namespace: clients[0].namespace, masterKey: masterKey)
                }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, store) in stores.enumerated() {
                    group.addTask { try await store.set("from \(index)", for: CryptKey<String>(key: "key\(index)")) }
                }
                try await group.waitForAll()
            }
            for store in stores {
                #expect(try await store.keys() == ["key0", "key1", "key2", "key3"])
                for index in 0..<4 {
                    #expect(try await store.get(CryptKey<String>(key: "key\(index)")) == "from \(index)")
                }
            }
            let rows = try await TestServer.rawSecretRows(of: clients[0].namespace, client: clients[0].client)
            #expect(rows.filter { $0.item == "header" }.count == 1)
        }
    }
}
