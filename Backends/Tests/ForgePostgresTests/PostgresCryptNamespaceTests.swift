import ForgeCrypt
import ForgePostgres
import Foundation
import Testing

/// Namespaces of one table share nothing: not a secret, not a key listing, not a deletion, not a master key.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresCryptNamespaceTests {
    let token = CryptKey<String>(key: "token")

    @Test func namespacesOfOneTableAreIsolated() async throws {
        let masterKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        try await TestServer.withCrypts(masterKey: masterKey) { stores in
            let first = stores[0]
            // The same master key, another namespace; and a third namespace with a master key of its own.
            let second = PostgresCrypt(
                client: first.client,
                namespace: "other-\(UUID().uuidString)",
                masterKey: masterKey
            )
            let third = PostgresCrypt(
                client: first.client,
                namespace: "third-\(UUID().uuidString)",
                masterKey: .passphrase("another passphrase")
            )
            try await first.set("first", for: token)
            try await second.set("second", for: token)
            try await third.set("third", for: token)
            try await second.set("only here", for: CryptKey<String>(key: "second.only"))

            #expect(try await first.get(token) == "first")
            #expect(try await second.get(token) == "second")
            #expect(try await third.get(token) == "third")
            #expect(try await first.keys() == ["token"])
            #expect(try await !first.contains(CryptKey<String>(key: "second.only")))

            try await first.deleteAll()
            #expect(try await first.get(token) == nil)
            #expect(try await second.keys() == ["second.only", "token"])
            #expect(try await third.get(token) == "third")

            try await second.delete(token)
            #expect(try await third.get(token) == "third")
            try await second.deleteAll()
            try await third.deleteAll()
        }
    }

    @Test func canonicallyEquivalentNamespacesAreOne() async throws {
        let masterKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        try await TestServer.withClient { client in
            let suffix = UUID().uuidString
            let composed = PostgresCrypt(client: client, namespace: "caf\u{E9}-\(suffix)", masterKey: masterKey)
            let decomposed = PostgresCrypt(client: client, namespace: "cafe\u{301}-\(suffix)", masterKey: masterKey)
            try await composed.set("one", for: token)
            #expect(try await decomposed.get(token) == "one")
            try await composed.deleteAll()
        }
    }
}
