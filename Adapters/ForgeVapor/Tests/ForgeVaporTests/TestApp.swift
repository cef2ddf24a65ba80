import ForgeKVStore
import ForgeVapor
import Testing
import Vapor
import VaporTesting

/// The application the tests drive: its sessions and cache on one store, and routes that use them.
enum TestApp {
    /// The sessions' lifetime in the tests.
    static let lifetime: Duration = .seconds(3600)
    /// The name of Vapor's session cookie.
    static let cookieName = "vapor-session"

    /// Runs `body` with a new application whose sessions (lasting `lifetime`) and cache live in `store`.
    ///
    /// Its routes: `POST /login/:name` keeps the name in the session, `GET /me` answers it (`nobody` without one),
    /// `POST /logout` destroys the session, `GET /cache/:key` answers the cache's string under `key` (`none` without
    /// one), read with `req.cache`, and `GET /cache-loop` answers whether `req.cache` is a `ForgeCache` whose futures
    /// complete on the request's event loop.
    static func withApp<Result>(
        store: some AsyncExpiringKVStoring,
        lifetime: Duration = lifetime,
        _ body: (Application) async throws -> Result
    ) async throws -> Result {
        try await VaporTesting.withApp(
            configure: { app in
                app.logger.logLevel = .warning
                app.sessions.use(.forge(store, lifetime: lifetime))
                app.middleware.use(app.sessions.middleware)
                app.caches.use(.forge(store))
                addRoutes(to: app, storeType: type(of: store))
            },
            body
        )
    }

    /// Adds the routes of ``withApp(store:lifetime:_:)``.
    private static func addRoutes<Store: AsyncExpiringKVStoring>(to app: Application, storeType: Store.Type) {
        app.post("login", ":name") { req -> String in
            req.session.data["name"] = try req.parameters.require("name")
            return "welcome"
        }
        app.get("me") { req -> String in
            req.session.data["name"] ?? "nobody"
        }
        app.post("logout") { req -> String in
            req.session.destroy()
            return "bye"
        }
        app.get("cache", ":key") { req async throws -> String in
            try await req.cache.get(try req.parameters.require("key"), as: String.self) ?? "none"
        }
        app.get("cache-loop") { req -> String in
            let cache = req.cache
            let read = cache.get("any", as: String.self)
            let forgeCache = cache as? ForgeCache<Store>
            let onRequestLoop = forgeCache?.eventLoop === req.eventLoop && read.eventLoop === req.eventLoop
            return onRequestLoop ? "request loop" : "another loop"
        }
    }
}

/// A response of the test application: its body, and the session cookie it sets, if any.
struct TestReply {
    /// The response's status.
    let status: HTTPResponseStatus
    /// The response's body.
    let body: String
    /// The session cookie the response sets: its value, and whether it is the expired cookie of a logout.
    let cookie: HTTPCookies.Value?
}

extension Application {
    /// Sends a request to `path`, with the session cookie `cookie` when it is not nil, expecting `status`.
    func send(
        _ method: HTTPMethod,
        _ path: String,
        cookie: String? = nil,
        expecting status: HTTPResponseStatus = .ok
    ) async throws -> TestReply {
        let response = try await testing()
            .sendRequest(method, path) { request in
                guard let cookie else { return }
                var cookies = HTTPCookies()
                cookies[TestApp.cookieName] = .init(string: cookie)
                request.headers.cookie = cookies
            }
        #expect(response.status == status)
        return TestReply(
            status: response.status,
            body: response.body.string,
            cookie: response.headers.setCookie?[TestApp.cookieName]
        )
    }

    /// Logs in as `name`, and returns the session cookie the response sets.
    func logIn(as name: String, cookie: String? = nil) async throws -> String {
        let reply = try await send(.POST, "login/\(name)", cookie: cookie)
        return try #require(reply.cookie?.string)
    }

    /// Who the session of `cookie` belongs to, and the session cookie the response sets.
    func me(cookie: String?) async throws -> TestReply {
        try await send(.GET, "me", cookie: cookie)
    }
}

extension AsyncExpiringKVStoring {
    /// The data the store holds for the session `id`, as ForgeSessionDriver stores it.
    func session(_ id: String) async throws -> SessionData? {
        try await get(KVKey<SessionData>("vapor.session.\(id)"))
    }

    /// How long the session `id` has left in the store.
    func sessionLifetime(_ id: String) async throws -> Duration? {
        try await remainingLifetime(of: KVKey<SessionData>("vapor.session.\(id)"))
    }
}
