import ForgeKVStore
import ForgeStorageTesting
import ForgeVapor
import Testing
import Vapor
import VaporTesting

/// `req.cache` is the application's `ForgeCache` on the request's event loop.
@Suite(.timeLimit(.minutes(1)))
struct CacheRequestTests {
    @Test(arguments: Backend.available)
    func aRequestsCacheReadsTheApplicationsValues(backend: Backend) async throws {
        try await backend.withStores(clock: ManualExpiryClock()) { stores in
            try await TestApp.withApp(store: stores[0]) { app in
                try await app.cache.set("greeting", to: "hello")
                #expect(try await app.send(.GET, "cache/greeting").body == "hello")
                #expect(try await app.send(.GET, "cache/farewell").body == "none")
                #expect(try await app.send(.GET, "cache-loop").body == "request loop")
            }
        }
    }

    @Test func forARequestIsTheCacheOnTheRequestsEventLoop() async throws {
        try await VaporTesting.withApp { app in
            app.logger.logLevel = .warning
            let store = InMemoryKVStore()
            let cache = ForgeCache(store: store, keyPrefix: "web.", on: app.eventLoopGroup.next())
            let loop = app.eventLoopGroup.next()
            let request = Request(application: app, on: loop)
            let requestCache = cache.for(request)
            #expect(requestCache.eventLoop === loop)
            #expect(requestCache.store === store)
            #expect(requestCache.keyPrefix == "web.")

            try await requestCache.set("greeting", to: "hello")
            #expect(store.get(KVKey<String>("web.greeting")) == "hello")
            #expect(requestCache.get("greeting", as: String.self).eventLoop === loop)
        }
    }
}
