import ForgeKVStore
import ForgeStorageTesting
import Testing
import Vapor

/// A session set by one request is read by the next, through Vapor's sessions middleware and its cookie.
@Suite(.timeLimit(.minutes(1)))
struct SessionRoundTripTests {
    @Test(arguments: Backend.available)
    func aSessionSurvivesRequests(backend: Backend) async throws {
        try await backend.withStores(clock: ManualExpiryClock()) { stores in
            try await TestApp.withApp(store: stores[0]) { app in
                let cookie = try await app.logIn(as: "ada")
                #expect(try await stores[0].session(cookie) == ["name": "ada"])

                for _ in 0..<2 {
                    let reply = try await app.me(cookie: cookie)
                    #expect(reply.body == "ada")
                    #expect(reply.cookie?.string == cookie)
                }
                #expect(try await app.me(cookie: nil).body == "nobody")
            }
        }
    }

    @Test(arguments: Backend.available)
    func aSessionChangedByARequestIsStoredChanged(backend: Backend) async throws {
        try await backend.withStores(clock: ManualExpiryClock()) { stores in
            try await TestApp.withApp(store: stores[0]) { app in
                let cookie = try await app.logIn(as: "ada")
                #expect(try await app.logIn(as: "grace", cookie: cookie) == cookie)
                #expect(try await app.me(cookie: cookie).body == "grace")
                #expect(try await stores[0].session(cookie) == ["name": "grace"])
            }
        }
    }

    @Test(arguments: Backend.available)
    func anUnknownCookieGetsANewSession(backend: Backend) async throws {
        try await backend.withStores(clock: ManualExpiryClock()) { stores in
            try await TestApp.withApp(store: stores[0]) { app in
                let cookie = try await app.logIn(as: "ada", cookie: "not-a-session")
                #expect(cookie != "not-a-session")
                #expect(try await stores[0].session("not-a-session") == nil)
                #expect(try await app.me(cookie: cookie).body == "ada")
            }
        }
    }

    @Test func sessionIdentifiersAreRandomBase64URL() async throws {
        let store = InMemoryKVStore()
        try await TestApp.withApp(store: store) { app in
            var identifiers: Set<String> = []
            for index in 0..<8 {
                let cookie = try await app.logIn(as: "user\(index)")
                #expect(cookie.count == 43)
                #expect(cookie.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
                identifiers.insert(cookie)
            }
            #expect(identifiers.count == 8)
        }
    }
}
