import ForgeKVStore
import ForgeStorageTesting
import Testing
import Vapor

/// A store that fails: a session that cannot be read fails the request, and is never read as no session (which would
/// give the client a new one and log it out), and a cache read that fails fails; an identifier the driver never makes
/// is no session.
@Suite(.timeLimit(.minutes(1)))
struct StoreFailureTests {
    @Test func aSessionThatCannotBeReadFailsTheRequestAndKeepsTheSession() async throws {
        let faults = StoreFaults()
        let store = InMemoryKVStore().injectingFaults(faults)
        try await TestApp.withApp(store: store) { app in
            let cookie = try await app.logIn(as: "ada")
            faults.failAlways(.read, with: .permissionDenied)
            let reply = try await app.send(.GET, "me", cookie: cookie, expecting: .internalServerError)
            #expect(reply.body.contains("nobody") == false, "a failed read is not a visitor without a session")
            #expect(reply.cookie == nil, "no new session was handed out")
            faults.removeAll()
            #expect(try await app.me(cookie: cookie).body == "ada")
        }
    }

    @Test func aCacheReadThatFailsFailsTheFuture() async throws {
        let faults = StoreFaults()
        let store = InMemoryKVStore().injectingFaults(faults)
        try await TestApp.withApp(store: store) { app in
            try await app.cache.set("greeting", to: "hello")
            faults.failNext(.read, with: .permissionDenied)
            await #expect(throws: KVStoreError.self) { try await app.cache.get("greeting", as: String.self) }
            #expect(try await app.cache.get("greeting", as: String.self) == "hello")
        }
    }

    @Test func aCookieThatNoSessionOfTheDriverCouldHaveIsNoSession() async throws {
        let store = InMemoryKVStore()
        try await TestApp.withApp(store: store) { app in
            // A value under the session prefix that a cookie could name, were its identifiers not checked.
            try store.set(KVKey<String>("vapor.session.forged"), value: "planted")
            #expect(try await app.me(cookie: "forged").body == "nobody")
            #expect(try await app.me(cookie: String(repeating: "/", count: 43)).body == "nobody")
        }
    }
}
