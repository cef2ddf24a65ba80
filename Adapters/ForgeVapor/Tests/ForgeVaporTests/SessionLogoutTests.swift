import ForgeKVStore
import ForgeStorageTesting
import Testing
import Vapor

/// `req.session.destroy()` removes the session from the store and expires the client's cookie.
@Suite(.timeLimit(.minutes(1)))
struct SessionLogoutTests {
    @Test(arguments: Backend.available)
    func logoutDeletesTheSession(backend: Backend) async throws {
        try await backend.withStores(clock: ManualExpiryClock()) { stores in
            try await TestApp.withApp(store: stores[0]) { app in
                let cookie = try await app.logIn(as: "ada")
                let reply = try await app.send(.POST, "logout", cookie: cookie)
                #expect(reply.body == "bye")
                #expect(reply.cookie?.string == "")
                #expect(reply.cookie?.expires == Date(timeIntervalSince1970: 0))
                #expect(try await stores[0].session(cookie) == nil)
                #expect(try await app.me(cookie: cookie).body == "nobody")
            }
        }
    }
}
