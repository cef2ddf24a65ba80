import ForgeHummingbird
import ForgeStorageTesting
import Foundation
import Hummingbird
import HummingbirdAuth
import HummingbirdTesting
import Testing

/// Sessions as a Hummingbird app keeps them: HummingbirdAuth's `SessionMiddleware` over the driver, driven through
/// HummingbirdTesting's router client, on each storage.
@Suite("Sessions through SessionMiddleware")
struct SessionMiddlewareTests {
    /// What the app keeps in a session.
    struct Visitor: Codable, Sendable {
        var name: String
    }

    /// An app whose `PUT /session?name=` logs a visitor in for ten minutes, `GET /session` greets the visitor of the
    /// request's session, and `DELETE /session` logs out, its sessions kept by `persist`.
    static func app(on persist: any PersistDriver) -> some ApplicationProtocol {
        let router = Router(context: BasicSessionRequestContext<Visitor, Visitor>.self)
        router.add(middleware: SessionMiddleware(storage: persist))
        router.put("session") { request, context -> HTTPResponse.Status in
            let name = try request.uri.queryParameters.require("name")
            context.sessions.createSession(Visitor(name: name), expiresIn: .seconds(600))
            return .ok
        }
        router.get("session") { _, context -> String in
            guard let visitor = context.sessions.session else { throw HTTPError(.unauthorized) }
            return "hello, \(visitor.name)"
        }
        router.delete("session") { _, context -> HTTPResponse.Status in
            context.sessions.clearSession()
            return .ok
        }
        return Application(router: router)
    }

    /// Logs `name` in through `app` and returns the session's cookie.
    static func logIn(_ name: String, through client: some TestClientProtocol) async throws -> String {
        let cookie = try await client.execute(uri: "/session?name=\(name)", method: .put) { response in
            #expect(response.status == .ok)
            return response.headers[.setCookie]
        }
        return try #require(cookie)
    }

    /// The status and body of `GET /session` with `cookie`.
    static func greeting(
        with cookie: String,
        through client: some TestClientProtocol
    ) async throws -> (HTTPResponse.Status, String) {
        try await client.execute(uri: "/session", method: .get, headers: [.cookie: cookie]) { response in
            (response.status, String(buffer: response.body))
        }
    }

    @Test(arguments: TestStorage.available)
    func aSessionLastsAcrossRequestsUntilItsLifetimeEnds(_ storage: TestStorage) async throws {
        try await storage.withDrivers { drivers, clock in
            try await Self.app(on: drivers[0])
                .test(.router) { client in
                    let cookie = try await Self.logIn("ada", through: client)
                    #expect(try await Self.greeting(with: cookie, through: client) == (.ok, "hello, ada"))
                    clock.advance(by: .seconds(599))
                    #expect(try await Self.greeting(with: cookie, through: client) == (.ok, "hello, ada"))
                    clock.advance(by: .seconds(1))
                    #expect(try await Self.greeting(with: cookie, through: client).0 == .unauthorized, "it has expired")
                }
        }
    }

    @Test(arguments: TestStorage.available)
    func loggingOutRemovesTheSession(_ storage: TestStorage) async throws {
        try await storage.withDrivers { drivers, _ in
            try await Self.app(on: drivers[0])
                .test(.router) { client in
                    let cookie = try await Self.logIn("grace", through: client)
                    try await client.execute(uri: "/session", method: .delete, headers: [.cookie: cookie]) { response in
                        #expect(response.status == .ok)
                    }
                    #expect(try await Self.greeting(with: cookie, through: client).0 == .unauthorized)
                }
        }
    }

    @Test(arguments: TestStorage.shared)
    func twoAppsOnOneStorageShareTheirSessions(_ storage: TestStorage) async throws {
        try await storage.withDrivers(2) { drivers, clock in
            let cookie = try await Self.app(on: drivers[0])
                .test(.router) { client in
                    try await Self.logIn("ada", through: client)
                }
            try await Self.app(on: drivers[1])
                .test(.router) { client in
                    #expect(try await Self.greeting(with: cookie, through: client) == (.ok, "hello, ada"))
                    try await client.execute(uri: "/session", method: .delete, headers: [.cookie: cookie]) { response in
                        #expect(response.status == .ok)
                    }
                }
            try await Self.app(on: drivers[0])
                .test(.router) { client in
                    #expect(
                        try await Self.greeting(with: cookie, through: client).0 == .unauthorized,
                        "a logout on one server ends the session on the other"
                    )
                    let second = try await Self.logIn("grace", through: client)
                    clock.advance(by: .seconds(600))
                    #expect(try await Self.greeting(with: second, through: client).0 == .unauthorized)
                }
        }
    }
}
