import ForgeKVStore
import ForgeStorageTesting
import ForgeVapor
import Testing
import Vapor
import VaporTesting

/// A session lives `lifetime` after its last request, in the store: each request renews it, and once it has been
/// left alone that long it reads as missing and the client gets a new one.
@Suite(.timeLimit(.minutes(1)))
struct SessionExpiryTests {
    @Test(arguments: Backend.available)
    func aSessionExpiresAfterItsLifetime(backend: Backend) async throws {
        let clock = ManualExpiryClock()
        try await backend.withStores(clock: clock) { stores in
            try await TestApp.withApp(store: stores[0]) { app in
                let cookie = try await app.logIn(as: "ada")
                #expect(try await stores[0].sessionLifetime(cookie) == TestApp.lifetime)

                clock.advance(by: TestApp.lifetime)
                #expect(try await stores[0].session(cookie) == nil)
                let reply = try await app.me(cookie: cookie)
                #expect(reply.body == "nobody")
                let newCookie = try #require(reply.cookie?.string)
                #expect(newCookie != cookie)
                #expect(try await stores[0].session(newCookie) == [:])
            }
        }
    }

    @Test(arguments: Backend.available)
    func eachRequestRenewsTheLifetime(backend: Backend) async throws {
        let clock = ManualExpiryClock()
        try await backend.withStores(clock: clock) { stores in
            try await TestApp.withApp(store: stores[0]) { app in
                let cookie = try await app.logIn(as: "ada")
                let almostALifetime = TestApp.lifetime - .seconds(1)
                for _ in 0..<3 {
                    clock.advance(by: almostALifetime)
                    #expect(try await stores[0].sessionLifetime(cookie) == .seconds(1))
                    #expect(try await app.me(cookie: cookie).body == "ada")
                    #expect(try await stores[0].sessionLifetime(cookie) == TestApp.lifetime)
                }
            }
        }
    }

    @Test(arguments: Backend.available)
    func theDefaultLifetimeIsTheDefaultCookiesWeek(backend: Backend) async throws {
        try await backend.withStores(clock: ManualExpiryClock()) { stores in
            let store = stores[0]
            try await VaporTesting.withApp { app in
                app.logger.logLevel = .warning
                app.sessions.use(.forge(store))
                app.middleware.use(app.sessions.middleware)
                app.post("login", ":name") { req -> String in
                    req.session.data["name"] = try req.parameters.require("name")
                    return "welcome"
                }
                let cookie = try await app.logIn(as: "ada")
                #expect(try await store.sessionLifetime(cookie) == .seconds(7 * 24 * 60 * 60))
            }
        }
        #expect(ForgeSessionDriver<InMemoryKVStore>.defaultLifetime == .seconds(604_800))
    }
}
