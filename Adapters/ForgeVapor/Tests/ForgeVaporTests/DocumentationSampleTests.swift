import ForgeKVStore
import ForgePostgres
import ForgeSQLite
import ForgeStorageTesting
import ForgeVapor
import Foundation
import PostgresNIO
import Synchronization
import Testing
import Vapor
import VaporTesting

/// The samples of the ForgeVapor documentation, which quotes them from here (`scripts/check-samples` checks that they
/// are verbatim): run as the reader would run them.
@Suite(.timeLimit(.minutes(1)))
struct DocumentationSampleTests {
    @Test func setUpOnOneServer() async throws {
        let dataFolder = FileManager.default.temporaryDirectory.appendingPathComponent("forge-vapor-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dataFolder) }
        try await withApp { app in
            app.logger.logLevel = .warning
            let store = SQLiteKVStore(fileURL: dataFolder.appendingPathComponent("web.sqlite"), namespace: "web")
            app.sessions.use(.forge(store, lifetime: .seconds(24 * 60 * 60)))
            app.middleware.use(app.sessions.middleware)
            app.caches.use(.forge(store))

            app.post("login", ":name") { req -> String in
                req.session.data["name"] = try req.parameters.require("name")
                return "Welcome"
            }
            app.get("me") { req -> String in
                req.session.data["name"] ?? "nobody"
            }

            let cookie = try await app.logIn(as: "ada")
            #expect(try await app.me(cookie: cookie).body == "ada")
            let lifetime = try #require(try await store.sessionLifetime(cookie))
            #expect(lifetime <= .seconds(24 * 60 * 60) && lifetime > .seconds(24 * 60 * 60 - 60))
        }
    }

    @Test func aCachedRoute() async throws {
        let clock = ManualExpiryClock()
        let reports = Mutex(0)
        @Sendable func makeReport() async throws -> String {
            reports.withLock { $0 += 1 }
            return "report \(reports.withLock { $0 })"
        }
        try await withApp { app async throws in
            app.logger.logLevel = .warning
            app.caches.use(.forge(InMemoryKVStore(expiry: KVExpiry(clock: clock))))
            app.get("report") { req async throws -> String in
                if let report = try await req.cache.get("report", as: String.self) { return report }
                let report = try await makeReport()  // the expensive work
                try await req.cache.set("report", to: report, expiresIn: .minutes(5))
                return report
            }

            #expect(try await app.send(.GET, "report").body == "report 1")
            #expect(try await app.send(.GET, "report").body == "report 1")
            clock.advance(by: .seconds(5 * 60))
            #expect(try await app.send(.GET, "report").body == "report 2")
        }
    }

    @Test func sessionsExpireInATest() async throws {
        try await withApp { app in
            app.logger.logLevel = .warning
            let clock = ManualExpiryClock()
            let store = InMemoryKVStore(expiry: KVExpiry(clock: clock))
            app.sessions.use(.forge(store, lifetime: .seconds(3600)))
            app.middleware.use(app.sessions.middleware)
            app.post("login", ":name") { req -> String in
                req.session.data["name"] = try req.parameters.require("name")
                return "Welcome"
            }
            app.get("me") { req -> String in
                req.session.data["name"] ?? "nobody"
            }

            let cookie = try await app.logIn(as: "ada")
            #expect(try await app.me(cookie: cookie).body == "ada")
            clock.advance(by: .seconds(3600))
            #expect(try await app.me(cookie: cookie).body == "nobody")
        }
    }

    @Test func aReaperReclaimsExpiredSessions() async throws {
        let clock = ManualExpiryClock()
        let store = InMemoryKVStore(expiry: KVExpiry(clock: clock))
        try await TestApp.withApp(store: store) { app in
            _ = try await app.logIn(as: "ada")
            #expect(store.count == 1)
            clock.advance(by: TestApp.lifetime)

            let (passes, passed) = AsyncStream<Int>.makeStream()
            let reaper = ExpiryReaper(store: store, interval: .seconds(600))
            let reaping = Task { await reaper.run { passed.yield((try? $0.get()) ?? -1) } }
            var reclaimed = passes.makeAsyncIterator()
            #expect(await reclaimed.next() == 1)
            reaping.cancel()
            #expect(store.count == 0)
        }
    }

    @Test(.enabled(if: TestServer.url != nil, TestServer.skipReason))
    func serversSharingPostgreSQL() async throws {
        let databaseURL = try #require(TestServer.url)
        let namespace = "vapor-sample-\(UUID())"
        try await withApp { app in
            app.logger.logLevel = .warning
            let client = PostgresClient(configuration: try PostgresClient.Configuration(url: databaseURL))
            let store = PostgresKVStore(client: client, namespace: namespace)
            app.sessions.use(.forge(store))
            app.middleware.use(app.sessions.middleware)
            app.caches.use(.forge(store))

            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await client.run() }
                defer { group.cancelAll() }
                try await app.cache.set("greeting", to: "hello")
                #expect(try await app.cache.get("greeting", as: String.self) == "hello")
                try await store.removeAll()
            }
        }
    }
}
